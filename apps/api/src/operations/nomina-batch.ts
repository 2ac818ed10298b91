import {
  AppError,
  beginIdempotent,
  createNominaDocument,
  loadDocument,
  requestHash,
  type DocumentRow,
  type NominaCreate,
  type Scope,
} from '@cfdi/services';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps';
import { problemBody } from '../plugins/problem';
import { currentAnswer, stampAndAnswer, stampingDeps } from './stamping';
import { isFinalError, problemAnswer, settleIdempotent, type Answer } from './idempotent';

export interface NominaBatchBody {
  merchantId: string;
  nominas: Array<Omit<NominaCreate, 'merchantId'>>;
}

interface ItemOutcome {
  index: number;
  status: number;
  id: string | null;
  nomina: unknown;
  error: unknown;
}

const ITEM_OPERATION = 'POST /v1/nominas/batch (receipt)';
/** Receipts in flight at once: enough to keep the worker busy, few enough to share the API. */
const STAMP_CONCURRENCY = 16;

/**
 * Each receipt of a batch goes through the same steps as POST /v1/nominas under an Idempotency-Key of its own,
 * derived from the batch's: a batch retried after a crash replays the receipts already answered, answers for the
 * documents already created, and creates only the rest (never a second document for a receipt).
 */
// A line break cannot come in an HTTP header, so no client's own Idempotency-Key can collide with a derived one.
const itemKey = (batchKey: string, index: number) => `${batchKey}\nnomina-batch/${index}`;

function problemOf(error: unknown, log?: FastifyBaseLogger): AppError {
  if (error instanceof AppError) return error;
  log?.error({ err: error }, 'a receipt of a payroll batch failed');
  return new AppError(
    500,
    'internal_error',
    'Internal error',
    'This receipt could not be processed; retry the batch with the same Idempotency-Key.',
  );
}

/** The receipt's answer stored under its key (a final one), or the key released (one worth retrying), as for one receipt. */
async function failed(
  deps: AppDeps,
  scope: Scope,
  key: string,
  index: number,
  id: string | null,
  error: unknown,
  log: FastifyBaseLogger,
): Promise<ItemOutcome> {
  const appError = problemOf(error, log);
  const answer = problemAnswer(deps.config.api.docsUrl, appError);
  await settleIdempotent(deps, scope, key, answer, isFinalError(appError));
  return { index, status: answer.status, id, nomina: null, error: answer.body };
}

/** The receipt's document, created (or found, after a crash) as POST /v1/nominas does; or its answer when it has one already. */
async function acceptReceipt(
  deps: AppDeps,
  scope: Scope,
  body: NominaBatchBody,
  batchKey: string,
  index: number,
  log: FastifyBaseLogger,
): Promise<ItemOutcome | DocumentRow> {
  const key = itemKey(batchKey, index);
  const receipt: NominaCreate = { ...body.nominas[index]!, merchantId: body.merchantId };
  let begin;
  try {
    begin = await beginIdempotent(
      deps.orm.em.fork(),
      scope,
      key,
      ITEM_OPERATION,
      requestHash(ITEM_OPERATION, receipt),
    );
  } catch (error) {
    // Another attempt holds this receipt's key (409), or the batch changed (422): its key is not ours to touch.
    const appError = problemOf(error, log);
    return {
      index,
      status: appError.status,
      id: null,
      nomina: null,
      error: problemBody(deps.config.api.docsUrl, appError),
    };
  }
  if (begin.kind === 'replay') {
    const ok = begin.status < 400;
    return {
      index,
      status: begin.status,
      id: ok ? (begin.body as { id: string }).id : null,
      nomina: ok ? begin.body : null,
      error: ok ? null : begin.body,
    };
  }
  try {
    if (begin.kind === 'recover')
      return await loadDocument(deps.orm.em.fork(), scope, begin.resourceId, 'nomina');
    return await createNominaDocument(
      deps.orm.em.fork(),
      stampingDeps(deps),
      scope,
      receipt,
      key,
      `/nominas/${index}`,
    );
  } catch (error) {
    return failed(deps, scope, key, index, null, error, log);
  }
}

/** The stamp workflow's answer for one accepted receipt, stored under its key. */
async function stampReceipt(
  deps: AppDeps,
  scope: Scope,
  key: string,
  index: number,
  row: DocumentRow,
  log: FastifyBaseLogger,
): Promise<ItemOutcome> {
  try {
    const answer =
      row.status === 'stamping'
        ? await stampAndAnswer(deps, scope, row, log)
        : await currentAnswer(deps, scope, row.id);
    await settleIdempotent(deps, scope, key, answer);
    const ok = answer.status < 400;
    return {
      index,
      status: answer.status,
      id: row.id,
      nomina: ok ? answer.body : null,
      error: ok ? null : answer.body,
    };
  } catch (error) {
    return failed(deps, scope, key, index, row.id, error, log);
  }
}

/**
 * POST /v1/nominas/batch: each receipt accepted (validated, folio, timbre reserved, stored) and then stamped by its own
 * stamp workflow, a few receipts at a time so accepting some overlaps stamping others. A receipt that fails (NOM
 * rule, credits, the SAT's rejection, the PAC) is reported in its place and never stops the others. 200 with one
 * entry per receipt, in request order.
 */
export async function stampNominaBatch(
  deps: AppDeps,
  scope: Scope,
  body: NominaBatchBody,
  batchKey: string,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const outcomes: ItemOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(STAMP_CONCURRENCY, body.nominas.length) }, async () => {
      while (next < body.nominas.length) {
        const index = next++;
        const accepted = await acceptReceipt(deps, scope, body, batchKey, index, log);
        outcomes.push(
          'index' in accepted
            ? accepted
            : await stampReceipt(deps, scope, itemKey(batchKey, index), index, accepted, log),
        );
      }
    }),
  );
  outcomes.sort((a, b) => a.index - b.index);
  const count = (statuses: number[]) => outcomes.filter((o) => statuses.includes(o.status)).length;
  return {
    status: 200,
    body: {
      object: 'nomina_batch',
      livemode: scope.livemode,
      merchantId: body.merchantId,
      summary: {
        total: outcomes.length,
        stamped: count([201]),
        stamping: count([202]),
        failed: outcomes.length - count([201, 202]),
      },
      data: outcomes,
    },
  };
}
