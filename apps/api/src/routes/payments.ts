import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createPaymentDocument, listDocuments, retrieveDocument, toPaymentView } from '@cfdi/services';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import { DocumentStatusSchema, IdempotencyHeadersSchema, StampingSchema } from '../schemas/documents';
import { PaymentCreateSchema, PaymentSchema } from '../schemas/payments';
import { resumedAnswer, stampAndAnswer } from '../stamping/answer';
import { idempotent } from '../stamping/idempotent';

const ListQuerySchema = Type.Intersect([
  PaginationQuerySchema,
  Type.Object({
    merchantId: Type.Optional(Type.String({ minLength: 1 })),
    invoiceId: Type.Optional(Type.String({ minLength: 1 })),
    status: Type.Optional(DocumentStatusSchema),
    uuid: Type.Optional(Type.String({ minLength: 1 })),
    createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  }),
]);

export const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const stampingDeps = { config: deps.config, catalogs: deps.catalogs, now: deps.now };

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
    idempotent(request, reply, `POST /v1/invoices/${request.params.id}/payments`, async (key) => {
      const row = await createPaymentDocument(deps.orm.em.fork(), stampingDeps, request.scope, request.params.id, request.body, key);
      return stampAndAnswer(deps, request.scope, row, request.log);
    }, (id) => resumedAnswer(deps, request.scope, id, request.log)));

  app.get('/payments/:id', {
    schema: {
      tags: ['payments'],
      operationId: 'retrievePayment',
      summary: 'Retrieve a payment',
      description: 'A payment complement, with signed file URLs once the files are ready and its cancellation.',
      params: IdParamsSchema,
      response: { 200: PaymentSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => toPaymentView(await retrieveDocument(deps.orm.em.fork(), request.scope, request.params.id, 'payment'), deps.fileUrls));

  app.get('/payments', {
    schema: {
      tags: ['payments'],
      operationId: 'listPayments',
      summary: 'List payments',
      description: 'Payment complements, newest first.',
      querystring: ListQuerySchema,
      response: { 200: ListSchema(PaymentSchema), ...problemResponses(400) },
    },
  }, async (request) => {
    const { limit, starting_after: startingAfter, ...filters } = request.query;
    const page = await listDocuments(deps.orm.em.fork(), request.scope, 'payment', filters, { limit, startingAfter });
    return { object: 'list' as const, data: page.rows.map((row) => toPaymentView(row, deps.fileUrls)), has_more: page.hasMore };
  });
};
