import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParamsSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, InvoiceSchema } from '../schemas/documents';
import { NominaSchema } from '../schemas/nominas';
import { CancelRequestSchema, PaymentSchema } from '../schemas/payments';
import { cancelDocument } from '../operations/cancellations';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

export const cancellationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const routes = [
    { type: 'invoice', path: '/invoices/:id/cancel', tag: 'invoices', schema: InvoiceSchema, operationId: 'cancelInvoice', summary: 'Cancel an invoice' },
    { type: 'payment', path: '/payments/:id/cancel', tag: 'payments', schema: PaymentSchema, operationId: 'cancelPayment', summary: 'Cancel a payment complement' },
    { type: 'nomina', path: '/nominas/:id/cancel', tag: 'nominas', schema: NominaSchema, operationId: 'cancelNomina', summary: 'Cancel a payroll receipt (no acceptance by the employee needed)' },
  ] as const;
  for (const route of routes) {
    app.post(route.path, {
      schema: {
        tags: [route.tag],
        summary: route.summary,
        operationId: route.operationId,
        description: `Cancel a stamped ${route.type} with the SAT (one timbre). 202 once the PAC answered: status \`cancelled\`, or \`cancel_pending\` while the receiver decides (then \`cancelled\`, or back to \`stamped\` with cancellation.status \`rejected\`).`,
        params: IdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: CancelRequestSchema,
        response: { 202: route.schema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
      },
    }, async (request, reply) =>
      sendAnswer(reply, await cancelDocument(deps, request.scope, route.type, request.params.id, request.body, idempotencyKeyOf(request), request.log)));
  }
};
