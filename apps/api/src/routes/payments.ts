import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParamsSchema, ListSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, StampingSchema } from '../schemas/documents';
import { PaymentCreateSchema, PaymentListQuerySchema, PaymentSchema } from '../schemas/payments';
import { createPayment, listPayments, retrievePayment } from '../operations/documents';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

export const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;

  app.post('/invoices/:id/payments', {
    schema: {
      tags: ['payments'],
      operationId: 'createPayment',
      summary: 'Create and stamp a payment complement',
      description: 'Record a payment of a stamped PPD invoice and stamp its payment complement (Pagos 2.0). Balances and NumParcialidad are computed by the server. Waits up to 20 s: 201 stamped, else 202 stamping.',
      params: IdParamsSchema,
      headers: IdempotencyHeadersSchema,
      body: PaymentCreateSchema,
      response: { 201: PaymentSchema, 202: StampingSchema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
    },
  }, async (request, reply) =>
    sendAnswer(reply, await createPayment(deps, request.scope, request.params.id, request.body, idempotencyKeyOf(request), request.log)));

  app.get('/payments/:id', {
    schema: {
      tags: ['payments'],
      operationId: 'retrievePayment',
      summary: 'Retrieve a payment',
      description: 'A payment complement, with signed file URLs once the files are ready and its cancellation.',
      params: IdParamsSchema,
      response: { 200: PaymentSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => retrievePayment(deps, request.scope, request.params.id));

  app.get('/payments', {
    schema: {
      tags: ['payments'],
      operationId: 'listPayments',
      summary: 'List payments',
      description: 'Payment complements, newest first.',
      querystring: PaymentListQuerySchema,
      response: { 200: ListSchema(PaymentSchema), ...problemResponses(400) },
    },
  }, async (request) => listPayments(deps, request.scope, request.query));
};
