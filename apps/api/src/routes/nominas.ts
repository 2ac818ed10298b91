import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParamsSchema, ListSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, StampingSchema } from '../schemas/documents';
import { NominaBatchCreateSchema, NominaBatchSchema, NominaCreateSchema, NominaListQuerySchema, NominaSchema } from '../schemas/nominas';
import { createNomina, createNominaBatch, listNominas, retrieveNomina } from '../operations/documents';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

/** A batch carries up to 1,000 receipts of a few KB each: above the 1 MB limit of every other body. */
const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

export const nominaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;

  app.post('/nominas', {
    schema: {
      tags: ['nominas'],
      summary: 'Stamp a payroll receipt',
      operationId: 'createNomina',
      description: 'Validate a payroll receipt (CFDI type N with Nómina 1.2) against the SAT rules (each failure a 400 naming the field and the NOM code), reserve one timbre and stamp it. The server computes every total and the Antigüedad. Waits up to 20 s: 201 stamped, else 202 stamping.',
      headers: IdempotencyHeadersSchema,
      body: NominaCreateSchema,
      response: { 201: NominaSchema, 202: StampingSchema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
    },
  }, async (request, reply) =>
    sendAnswer(reply, await createNomina(deps, request.scope, request.body, idempotencyKeyOf(request), request.log)));

  app.post('/nominas/batch', {
    bodyLimit: BATCH_BODY_LIMIT,
    schema: {
      tags: ['nominas'],
      summary: 'Stamp a payroll run',
      operationId: 'createNominaBatch',
      description: 'Up to 1,000 payroll receipts of one employer under one Idempotency-Key. Each receipt is its own document, stamp workflow and timbre, and is answered in its place with the status POST /v1/nominas would have given it (201, 202, 400, 402, 422, 503); one that fails never stops the others. Retrying with the same key never creates a second document for a receipt.',
      headers: IdempotencyHeadersSchema,
      body: NominaBatchCreateSchema,
      response: { 200: NominaBatchSchema, ...problemResponses(400, 403, 404, 409, 413, 422) },
    },
  }, async (request, reply) =>
    sendAnswer(reply, await createNominaBatch(deps, request.scope, request.body, idempotencyKeyOf(request), request.log)));

  app.get('/nominas/:id', {
    schema: {
      tags: ['nominas'],
      summary: 'Retrieve a payroll receipt',
      operationId: 'retrieveNomina',
      description: 'A payroll receipt with its employee, period and totals, and signed file URLs once the files are ready.',
      params: IdParamsSchema,
      response: { 200: NominaSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => retrieveNomina(deps, request.scope, request.params.id));

  app.get('/nominas', {
    schema: {
      tags: ['nominas'],
      summary: 'List payroll receipts',
      operationId: 'listNominas',
      description: 'Payroll receipts, newest first; filter by employer, status, UUID, employee RFC and payment date.',
      querystring: NominaListQuerySchema,
      response: { 200: ListSchema(NominaSchema), ...problemResponses(400) },
    },
  }, async (request) => listNominas(deps, request.scope, request.query));
};
