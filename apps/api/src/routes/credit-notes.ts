import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createCreditNoteDocument } from '@cfdi/services';
import { problemResponses } from '../schemas/common';
import { CreditNoteCreateSchema, IdempotencyHeadersSchema, InvoiceSchema, StampingSchema } from '../schemas/documents';
import { resumedAnswer, stampAndAnswer } from '../stamping/answer';
import { idempotent } from '../stamping/idempotent';

export const creditNoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const stampingDeps = { config: deps.config, catalogs: deps.catalogs, now: deps.now };

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
    idempotent(request, reply, 'POST /v1/credit_notes', async (key) => {
      const row = await createCreditNoteDocument(deps.orm.em.fork(), stampingDeps, request.scope, request.body, key);
      return stampAndAnswer(deps, request.scope, row, request.log);
    }, (id) => resumedAnswer(deps, request.scope, id, request.log)));
};
