import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema } from '../schemas/documents';
import { NominaBatchCreateSchema, NominaBatchSchema } from '../schemas/nominas';
import { createNominaBatch } from '../operations/documents';
import { idempotencyKeyOf, sendAnswer } from './send-answer';

/** A batch carries up to 1,000 receipts of a few KB each: above the 1 MB limit of every other body. */
const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

/** POST /v1/nominas/batch: a payroll run (the one-receipt routes are the registry's, see kinds/). */
export const nominaBatchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;

  app.post(
    '/nominas/batch',
    {
      bodyLimit: BATCH_BODY_LIMIT,
      schema: {
        tags: ['nominas'],
        summary: 'Stamp a payroll run',
        operationId: 'createNominaBatch',
        description:
          'Up to 1,000 payroll receipts of one employer under one Idempotency-Key. Each receipt is its own document, stamp workflow and timbre, and is answered in its place with the status POST /v1/nominas would have given it (201, 202, 400, 402, 422, 503); one that fails never stops the others. Retrying with the same key never creates a second document for a receipt.',
        headers: IdempotencyHeadersSchema,
        body: NominaBatchCreateSchema,
        response: { 200: NominaBatchSchema, ...problemResponses(400, 403, 404, 409, 413, 422) },
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await createNominaBatch(deps, request.scope, request.body, idempotencyKeyOf(request), request.log),
      ),
  );
};
