import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createNominaDocument, listDocuments, retrieveDocument, toNominaView } from '@cfdi/services';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import { DocumentStatusSchema, IdempotencyHeadersSchema, RfcPattern, StampingSchema } from '../schemas/documents';
import { NominaBatchCreateSchema, NominaBatchSchema, NominaCreateSchema, NominaSchema } from '../schemas/nominas';
import { resumedAnswer, stampAndAnswer } from '../stamping/answer';
import { idempotent } from '../stamping/idempotent';
import { stampNominaBatch } from '../stamping/nomina-batch';

const IsoDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
const ListQuerySchema = Type.Intersect([
  PaginationQuerySchema,
  Type.Object({
    merchantId: Type.Optional(Type.String({ minLength: 1 })),
    status: Type.Optional(DocumentStatusSchema),
    uuid: Type.Optional(Type.String({ minLength: 1 })),
    employeeRfc: Type.Optional(Type.String({ pattern: RfcPattern, description: "The employee's RFC" })),
    paymentDateFrom: Type.Optional({ ...IsoDate, description: 'FechaPago on or after (YYYY-MM-DD)' }),
    paymentDateTo: Type.Optional({ ...IsoDate, description: 'FechaPago on or before (YYYY-MM-DD)' }),
    createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  }),
]);

/** A batch carries up to 1,000 receipts of a few KB each: above the 1 MB limit of every other body. */
const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

export const nominaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  const stampingDeps = { config: deps.config, catalogs: deps.catalogs, now: deps.now };

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
    idempotent(request, reply, 'POST /v1/nominas', async (key) => {
      const row = await createNominaDocument(deps.orm.em.fork(), stampingDeps, request.scope, request.body, key);
      return stampAndAnswer(deps, request.scope, row, request.log);
    }, (id) => resumedAnswer(deps, request.scope, id, request.log)));

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
    idempotent(request, reply, 'POST /v1/nominas/batch', (key) => stampNominaBatch(deps, request.scope, request.body, key, request.log),
      // A batch attaches no single resource to its key, so there is nothing to recover: a retry re-runs it receipt by receipt.
      () => stampNominaBatch(deps, request.scope, request.body, request.headers['idempotency-key'] as string, request.log)));

  app.get('/nominas/:id', {
    schema: {
      tags: ['nominas'],
      summary: 'Retrieve a payroll receipt',
      operationId: 'retrieveNomina',
      description: 'A payroll receipt with its employee, period and totals, and signed file URLs once the files are ready.',
      params: IdParamsSchema,
      response: { 200: NominaSchema, ...problemResponses(403, 404) },
    },
  }, async (request) => toNominaView(await retrieveDocument(deps.orm.em.fork(), request.scope, request.params.id, 'nomina'), deps.fileUrls));

  app.get('/nominas', {
    schema: {
      tags: ['nominas'],
      summary: 'List payroll receipts',
      operationId: 'listNominas',
      description: 'Payroll receipts, newest first; filter by employer, status, UUID, employee RFC and payment date.',
      querystring: ListQuerySchema,
      response: { 200: ListSchema(NominaSchema), ...problemResponses(400) },
    },
  }, async (request) => {
    const { limit, starting_after: startingAfter, ...filters } = request.query;
    const page = await listDocuments(deps.orm.em.fork(), request.scope, 'nomina', filters, { limit, startingAfter });
    return { object: 'list' as const, data: page.rows.map((row) => toNominaView(row, deps.fileUrls)), has_more: page.hasMore };
  });
};
