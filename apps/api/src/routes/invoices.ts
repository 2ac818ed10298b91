import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParamsSchema, ListSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, InvoiceCreateSchema, InvoiceListQuerySchema, InvoiceSchema, StampingSchema } from '../schemas/documents';
import { createInvoice, listInvoices, retrieveInvoice } from '../operations/documents';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

export const invoiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;

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
    sendAnswer(reply, await createInvoice(deps, request.scope, request.body, idempotencyKeyOf(request), request.log)));

  app.get('/invoices/:id', {
    schema: {
      tags: ['invoices'],
      operationId: 'retrieveInvoice',
      summary: 'Retrieve an invoice',
      description: 'An invoice or credit note, with signed file URLs once the files are ready.',
      params: IdParamsSchema,
      response: { 200: InvoiceSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => retrieveInvoice(deps, request.scope, request.params.id));

  app.get('/invoices', {
    schema: {
      tags: ['invoices'],
      operationId: 'listInvoices',
      summary: 'List invoices',
      description: 'Invoices and credit notes, newest first.',
      querystring: InvoiceListQuerySchema,
      response: { 200: ListSchema(InvoiceSchema), ...problemResponses(400) },
    },
  }, async (request) => listInvoices(deps, request.scope, request.query));
};
