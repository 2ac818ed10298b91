import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../schemas/common';
import { CreditNoteCreateSchema, IdempotencyHeadersSchema, InvoiceSchema, StampingSchema } from '../schemas/documents';
import { createCreditNote } from '../operations/documents';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

export const creditNoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;

  app.post('/credit_notes', {
    schema: {
      tags: ['credit notes'],
      operationId: 'createCreditNote',
      summary: 'Create and stamp a credit note',
      description: 'Stamp a credit note (egreso) related to an income invoice of this service (relatedInvoiceId) or stamped elsewhere (relatedUuid + receiver).',
      headers: IdempotencyHeadersSchema,
      body: CreditNoteCreateSchema,
      response: { 201: InvoiceSchema, 202: StampingSchema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
    },
  }, async (request, reply) =>
    sendAnswer(reply, await createCreditNote(deps, request.scope, request.body, idempotencyKeyOf(request), request.log)));
};
