import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import {
  AppError, loadDocument, requestCancellation, ServiceUnavailableError, toInvoiceView, toPaymentView, type CancellableRow, type Scope,
} from '@cfdi/services';
import { startCancellation, type CancelOutcome } from '@cfdi/workflows/client';
import type { AppDeps } from '../deps';
import { IdParamsSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, InvoiceSchema } from '../schemas/documents';
import { CancelRequestSchema, PaymentSchema } from '../schemas/payments';
import { idempotent, type Answer } from '../stamping/idempotent';

type CancellableType = 'invoice' | 'payment';

/** 202 with the resource as it is now: status and cancellation (with the acuse once the PAC answered). */
async function currentCancellation(deps: AppDeps, scope: Scope, id: string, type: CancellableType): Promise<Answer> {
  const row = await loadDocument(deps.orm.em.fork(), scope, id, type);
  return { status: 202, body: type === 'payment' ? toPaymentView(row, deps.fileUrls) : toInvoiceView(row, deps.fileUrls) };
}

/**
 * Starts the cancel workflow and waits (bounded like stamping) until the PAC answered: 202 cancelled or
 * cancel_pending, 422 sat_rejected (refunded), 503 pac_unavailable (refunded), or 202 still requesting.
 */
async function cancelAndAnswer(deps: AppDeps, scope: Scope, id: string, type: CancellableType, attach: boolean, log: FastifyBaseLogger): Promise<Answer> {
  let outcome: CancelOutcome | null;
  try {
    outcome = await startCancellation(deps.temporal.client, { documentId: id, polling: deps.config.cancellationPolling }, {
      taskQueue: deps.config.temporal.taskQueue, waitMs: deps.config.stampWaitMs, attach,
    });
  } catch (error) {
    // The request is recorded with its timbre reserved: the resume-stalled sweep sends it; the client sees it pending.
    log.error({ err: error, documentId: id }, 'could not start the cancel workflow; the resume-stalled sweep will');
    return currentCancellation(deps, scope, id, type);
  }
  if (outcome?.outcome === 'rejected') {
    throw new AppError(422, 'sat_rejected', 'Cancellation refused by the SAT or the PAC',
      `${outcome.code}: ${outcome.message}. The reserved timbre was refunded.`, { satCode: outcome.code });
  }
  if (outcome?.outcome === 'unavailable') {
    throw new ServiceUnavailableError('pac_unavailable',
      `The PAC is temporarily unavailable (${outcome.detail}). Nothing was cancelled and the timbre was refunded; retry with the same Idempotency-Key.`);
  }
  return currentCancellation(deps, scope, id, type);
}

/** A request whose first attempt died after recording it: send it if it was never sent, else answer as it is. */
async function recoverCancellation(deps: AppDeps, scope: Scope, id: string, type: CancellableType, log: FastifyBaseLogger): Promise<Answer> {
  const row = (await loadDocument(deps.orm.em.fork(), scope, id, type)) as CancellableRow;
  if (row.status === 'stamped' && row.cancellation?.status === 'pending') return cancelAndAnswer(deps, scope, id, type, true, log);
  return currentCancellation(deps, scope, id, type);
}

export const cancellationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const requestDeps = { config: deps.config, now: deps.now };
  const routes = [
    { type: 'invoice', path: '/invoices/:id/cancel', tag: 'invoices', operationId: 'cancelInvoice', schema: InvoiceSchema },
    { type: 'payment', path: '/payments/:id/cancel', tag: 'payments', operationId: 'cancelPayment', schema: PaymentSchema },
  ] as const;
  for (const route of routes) {
    app.post(route.path, {
      schema: {
        tags: [route.tag],
        operationId: route.operationId,
        summary: `Cancel a ${route.type}`,
        description: `Cancel a stamped ${route.type} with the SAT (one timbre). 202 once the PAC answered: status \`cancelled\`, or \`cancel_pending\` while the receiver decides (then \`cancelled\`, or back to \`stamped\` with cancellation.status \`rejected\`).`,
        params: IdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: CancelRequestSchema,
        response: { 202: route.schema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
      },
    }, async (request, reply) =>
      idempotent(request, reply, `POST /v1/${route.type}s/${request.params.id}/cancel`, async (key) => {
        await requestCancellation(deps.orm.em.fork(), requestDeps, request.scope, { id: request.params.id, type: route.type }, request.body, key);
        return cancelAndAnswer(deps, request.scope, request.params.id, route.type, false, request.log);
      }, (id) => recoverCancellation(deps, request.scope, id, route.type, request.log)));
  }
};
