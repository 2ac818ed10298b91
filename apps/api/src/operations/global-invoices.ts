import type { FastifyBaseLogger } from 'fastify';
import {
  addDays,
  ConflictError,
  createGlobalInvoice,
  findMerchant,
  globalInvoiceSettings,
  globalPeriodOf,
  mexicoCityDay,
  ValidationError,
  type Periodicidad,
  type Scope,
} from '@cfdi/services';
import { runGlobalInvoice } from '@cfdi/temporal-contract/client';
import type { AppDeps } from '../deps';
import type { GlobalInvoiceRunBody } from '../schemas/receipts';
import type { Answer } from './idempotent';
import { currentAnswer } from './stamping';

/**
 * `POST /v1/receipts/global`: the global invoice of one period of a merchant, now. The document is created here (so
 * a refusal is this request's problem+json: no CSD, no balance) by the same idempotent step the workflow runs, then
 * the period's workflow stamps it; the answer is the document as POST /v1/invoices answers (201 stamped, 202 still
 * stamping, 422 refused). The period is its own idempotency key: asked again, the same document comes back.
 */
export async function runGlobalInvoiceNow(
  deps: AppDeps,
  scope: Scope,
  body: GlobalInvoiceRunBody,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const em = deps.orm.em.fork();
  const merchant = await findMerchant(em, scope, body.merchantId);
  const periodicity = (body.periodicity ??
    (await globalInvoiceSettings(em, merchant.id))!.periodicity) as Periodicidad;
  if (periodicity === '05' && merchant.regimen_fiscal !== '621')
    throw ValidationError.field(
      '/periodicity',
      'is 05 (bimonthly), which the SAT allows only to issuers of régimen 621 (CFDI40132)',
    );
  if (addDays(body.date, 0) !== body.date) throw ValidationError.field('/date', 'is not a calendar day');
  const period = globalPeriodOf(body.date, periodicity);
  const today = mexicoCityDay(deps.now?.() ?? new Date());
  if (period.end > today)
    throw ValidationError.field(
      '/date',
      `is in the period ${period.start} to ${addDays(period.end, -1)}, which has not ended: its global invoice can be stamped from ${period.end}`,
    );
  const run = { accountId: scope.accountId, livemode: scope.livemode, merchantId: merchant.id, period };
  const { documentId } = await createGlobalInvoice(
    em,
    { config: deps.config, catalogs: deps.catalogs, ...(deps.now ? { now: deps.now } : {}) },
    run,
  );
  if (!documentId)
    throw new ConflictError(
      'no_open_receipts',
      `Merchant ${merchant.id} has no open receipt sold from ${period.start} to ${addDays(period.end, -1)}.`,
    );
  try {
    await runGlobalInvoice(
      deps.temporal,
      { ...run, reconciliation: deps.config.reconciliation },
      { taskQueue: deps.config.temporal.taskQueue, waitMs: deps.config.stampWaitMs },
    );
  } catch (error) {
    // The document is stored with its timbre reserved: the resume-stalled sweep stamps it; the answer is 202.
    log.error({ err: error, documentId }, 'could not run the global invoice workflow; the sweep stamps it');
  }
  return currentAnswer(deps, scope, documentId);
}
