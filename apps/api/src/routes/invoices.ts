import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createInvoiceDocument, listDocuments, retrieveDocument, toInvoiceView } from '@cfdi/services';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import { DocumentStatusSchema, IdempotencyHeadersSchema, InvoiceCreateSchema, InvoiceSchema, StampingSchema } from '../schemas/documents';
import { resumedAnswer, stampAndAnswer } from '../stamping/answer';
import { idempotent } from '../stamping/idempotent';

const ListQuerySchema = Type.Intersect([
  PaginationQuerySchema,
  Type.Object({
    merchantId: Type.Optional(Type.String({ minLength: 1 })),
    kind: Type.Optional(Type.Union([Type.Literal('nominal'), Type.Literal('global'), Type.Literal('credit_note')])),
    status: Type.Optional(DocumentStatusSchema),
    uuid: Type.Optional(Type.String({ minLength: 1 })),
    metodoPago: Type.Optional(Type.Union([Type.Literal('PUE'), Type.Literal('PPD')])),
    createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  }),
]);

export const invoiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const stampingDeps = { config: deps.config, catalogs: deps.catalogs, now: deps.now };

  app.post('/invoices', {
    schema: {
      tags: ['invoices'],
      operationId: 'createInvoice',
      summary: 'Create and stamp an invoice',
      description: 'Validate, reserve one timbre and stamp an invoice (PUE, PPD or global). Waits up to 20 s: 201 stamped, else 202 stamping.',
      headers: IdempotencyHeadersSchema,
      body: InvoiceCreateSchema,
      response: { 201: InvoiceSchema, 202: StampingSchema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
    },
  }, async (request, reply) =>
    idempotent(request, reply, 'POST /v1/invoices', async (key) => {
      const row = await createInvoiceDocument(deps.orm.em.fork(), stampingDeps, request.scope, request.body, key);
      return stampAndAnswer(deps, request.scope, row, request.log);
    }, (id) => resumedAnswer(deps, request.scope, id, request.log)));

  app.get('/invoices/:id', {
    schema: {
      tags: ['invoices'],
      operationId: 'retrieveInvoice',
      summary: 'Retrieve an invoice',
      description: 'An invoice or credit note, with signed file URLs once the files are ready.',
      params: IdParamsSchema,
      response: { 200: InvoiceSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => toInvoiceView(await retrieveDocument(deps.orm.em.fork(), request.scope, request.params.id, 'invoice'), deps.fileUrls));

  app.get('/invoices', {
    schema: {
      tags: ['invoices'],
      operationId: 'listInvoices',
      summary: 'List invoices',
      description: 'Invoices and credit notes, newest first.',
      querystring: ListQuerySchema,
      response: { 200: ListSchema(InvoiceSchema), ...problemResponses(400) },
    },
  }, async (request) => {
    const { limit, starting_after: startingAfter, ...filters } = request.query;
    const page = await listDocuments(deps.orm.em.fork(), request.scope, 'invoice', filters, { limit, startingAfter });
    return { object: 'list' as const, data: page.rows.map((row) => toInvoiceView(row, deps.fileUrls)), has_more: page.hasMore };
  });
};
