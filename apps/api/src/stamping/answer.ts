import { AppError, loadDocument, ServiceUnavailableError, toInvoiceView, toPaymentView, toStampingView, type DocumentRow, type Scope } from '@cfdi/services';
import { startStamping } from '@cfdi/workflows/client';
import type { AppDeps } from '../deps';
import type { Answer } from './idempotent';

/**
 * Starts stamping a freshly created document and turns the outcome into the HTTP answer: 201 stamped,
 * 422 sat_rejected (refunded), 503 pac_unavailable (refunded), 202 while still stamping or reconciling.
 */
export async function stampAndAnswer(deps: AppDeps, scope: Scope, row: DocumentRow): Promise<Answer> {
  const outcome = await startStamping(deps.temporal.client, {
    documentId: row.id,
    reconciliation: deps.config.reconciliation,
  }, { taskQueue: deps.config.temporal.taskQueue, waitMs: deps.config.stampWaitMs });

  if (!outcome || outcome.outcome === 'reconciling') return currentAnswer(deps, scope, row.id);
  switch (outcome.outcome) {
    case 'stamped':
      return currentAnswer(deps, scope, row.id);
    case 'rejected':
      throw new AppError(422, 'sat_rejected', 'Rejected by the SAT or the PAC',
        `${outcome.code}: ${outcome.message}. The reserved timbre was refunded.`, { satCode: outcome.code });
    case 'unavailable':
      throw new ServiceUnavailableError('pac_unavailable',
        `The PAC is temporarily unavailable (${outcome.detail}). Nothing was stamped and the timbre was refunded; retry with the same Idempotency-Key.`);
    case 'failed':
      throw new AppError(422, 'stamp_failed', 'Stamping failed', `${outcome.code}: ${outcome.message}. The reserved timbre was refunded.`);
  }
}

/** The resource as it is now: stamped → 201 with the full resource, otherwise 202 with the reduced shape. */
export async function currentAnswer(deps: AppDeps, scope: Scope, documentId: string): Promise<Answer> {
  const row = await loadDocument(deps.orm.em.fork(), scope, documentId);
  if (row.status === 'stamping') return { status: 202, body: toStampingView(row) };
  if (row.status === 'stamp_failed') {
    throw new AppError(422, row.sat_code === 'pac_unavailable' ? 'pac_unavailable' : 'sat_rejected', 'Stamping failed',
      `${row.sat_code}: ${row.failure_detail}. The reserved timbre was refunded.`, { satCode: row.sat_code ?? undefined });
  }
  const view = row.type === 'payment' ? toPaymentView(row, deps.fileUrls) : toInvoiceView(row, deps.fileUrls);
  return { status: 201, body: view };
}
