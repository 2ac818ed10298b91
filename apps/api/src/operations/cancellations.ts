import type { FastifyBaseLogger } from 'fastify';
import {
  AppError,
  loadDocument,
  requestCancellation,
  ServiceUnavailableError,
  toDocumentView,
  type CancellableRow,
  type Scope,
} from '@cfdi/services';
import { startCancellation, type CancelOutcome } from '@cfdi/temporal-contract/client';
import type { Static } from '@sinclair/typebox';
import type { AppDeps } from '../deps';
import type { CancelRequestSchema } from '../schemas/payments';
import { runIdempotent, type Answer } from './idempotent';

export type CancellableType = 'invoice' | 'payment' | 'nomina' | 'retention' | 'traslado';

/** 202 with the resource as it is now: status and cancellation (with the acuse once the PAC answered). */
async function currentCancellation(
  deps: AppDeps,
  scope: Scope,
  id: string,
  type: CancellableType,
): Promise<Answer> {
  const row = await loadDocument(deps.orm.em.fork(), scope, id, type);
  return { status: 202, body: toDocumentView(row, deps.fileUrls) };
}

/**
 * Starts the cancel workflow and waits (bounded like stamping) until the PAC answered: 202 cancelled or
 * cancel_pending, 422 sat_rejected (refunded), 503 pac_unavailable (refunded), or 202 still requesting.
 */
async function cancelAndAnswer(
  deps: AppDeps,
  scope: Scope,
  id: string,
  type: CancellableType,
  attach: boolean,
  log: FastifyBaseLogger,
): Promise<Answer> {
  let outcome: CancelOutcome | null;
  try {
    outcome = await startCancellation(
      deps.temporal,
      { documentId: id, polling: deps.config.cancellationPolling },
      {
        taskQueue: deps.config.temporal.taskQueue,
        waitMs: deps.config.stampWaitMs,
        attach,
      },
    );
  } catch (error) {
    // The request is recorded with its timbre reserved: the resume-stalled sweep sends it; the client sees it pending.
    log.error(
      { err: error, documentId: id },
      'could not start the cancel workflow; the resume-stalled sweep will',
    );
    return currentCancellation(deps, scope, id, type);
  }
  if (outcome?.outcome === 'rejected') {
    throw new AppError(
      422,
      'sat_rejected',
      'Cancellation refused by the SAT or the PAC',
      `${outcome.code}: ${outcome.message}. The reserved timbre was refunded.`,
      { satCode: outcome.code },
    );
  }
  if (outcome?.outcome === 'unavailable') {
    throw new ServiceUnavailableError(
      'pac_unavailable',
      `The PAC is temporarily unavailable (${outcome.detail}). Nothing was cancelled and the timbre was refunded; retry with the same Idempotency-Key.`,
    );
  }
  return currentCancellation(deps, scope, id, type);
}

/** A request whose first attempt died after recording it: send it if it was never sent, else answer as it is. */
async function recoverCancellation(
  deps: AppDeps,
  scope: Scope,
  id: string,
  type: CancellableType,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const row = (await loadDocument(deps.orm.em.fork(), scope, id, type)) as CancellableRow;
  if (row.status === 'stamped' && row.cancellation?.status === 'pending')
    return cancelAndAnswer(deps, scope, id, type, true, log);
  return currentCancellation(deps, scope, id, type);
}

/** `POST /v1/{invoices|payments|nominas}/{id}/cancel` and the cancel_* tools: one timbre, idempotent under `key`. */
export function cancelDocument(
  deps: AppDeps,
  scope: Scope,
  type: CancellableType,
  id: string,
  body: Static<typeof CancelRequestSchema>,
  key: string,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const requestDeps = { config: deps.config, now: deps.now };
  return runIdempotent(
    deps,
    scope,
    key,
    `POST /v1/${type}s/${id}/cancel`,
    body,
    async (claimed) => {
      await requestCancellation(deps.orm.em.fork(), requestDeps, scope, { id, type }, body, claimed);
      return cancelAndAnswer(deps, scope, id, type, false, log);
    },
    (resourceId) => recoverCancellation(deps, scope, resourceId, type, log),
  );
}
