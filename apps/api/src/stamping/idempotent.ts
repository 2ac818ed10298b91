import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  abandonIdempotent, AppError, beginIdempotent, checkIdempotencyKey, completeIdempotent, releaseIdempotent, requestHash, ValidationError,
} from '@cfdi/services';
import { problemBody } from '../plugins/problem';

export interface Answer {
  status: number;
  body: unknown;
}

// Final answers are stored and replayed; these mean "try again" and release the key instead. A 403 is about the API
// key that asked, not the request: another key of the account may make the same request with the same
// Idempotency-Key (keys are per account and mode).
const RETRYABLE_STATUSES = new Set([402, 403, 409, 429, 500, 503]);
const isFinal = (error: AppError) => !RETRYABLE_STATUSES.has(error.status) && !(error instanceof ValidationError && error.transient);

/**
 * Runs an Idempotency-Key operation: the first request executes, a concurrent one gets 409, a later identical
 * one gets the stored answer with `Idempotency-Replayed: true`, a different body 422. `recover` answers for a
 * resource created by an attempt that crashed before storing its answer.
 */
export async function idempotent(
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  execute: (key: string) => Promise<Answer>,
  recover: (resourceId: string) => Promise<Answer>,
): Promise<FastifyReply> {
  const { orm, config } = request.server.deps;
  const key = checkIdempotencyKey(request.headers['idempotency-key'] as string | undefined);
  const scope = request.scope;
  const begin = await beginIdempotent(orm.em.fork(), scope, key, operation, requestHash(operation, request.body ?? null));
  if (begin.kind === 'replay') return send(reply.header('idempotency-replayed', 'true'), begin);

  let answer: Answer;
  try {
    answer = begin.kind === 'recover' ? await recover(begin.resourceId) : await execute(key);
  } catch (error) {
    if (error instanceof AppError && isFinal(error)) {
      await store(request, key, error.status, problemBody(config.api.docsUrl, error));
    } else {
      await releaseIdempotent(orm.em.fork(), scope, key);
    }
    throw error;
  }
  await store(request, key, answer.status, answer.body);
  return send(reply, answer);
}

/**
 * Stores the answer under the key. If that fails (the database is down, or refuses the answer's text), the claim is
 * given up rather than left in flight for minutes: the caller still gets its answer, and a retry with the same key
 * either recovers the document created (the next request answers from it) or runs again when none was.
 */
async function store(request: FastifyRequest, key: string, status: number, body: unknown): Promise<void> {
  const { orm } = request.server.deps;
  try {
    await completeIdempotent(orm.em.fork(), request.scope, key, status, body);
  } catch (error) {
    request.log.error({ err: error }, 'could not store the idempotent answer; the key is released');
    await abandonIdempotent(orm.em.fork(), request.scope, key).catch((err: unknown) => request.log.error({ err }, 'could not release the key'));
  }
}

function send(reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.status >= 400) return reply.code(answer.status).type('application/problem+json').serializer(JSON.stringify).send(answer.body);
  return reply.code(answer.status).send(answer.body);
}
