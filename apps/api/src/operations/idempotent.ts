import {
  abandonIdempotent,
  AppError,
  beginIdempotent,
  completeIdempotent,
  releaseIdempotent,
  requestHash,
  ValidationError,
  type Scope,
} from '@cfdi/services';
import type { AppDeps } from '../deps';
import { problemBody } from '../plugins/problem';

/** What an operation answers, whatever carries it (a REST response or an MCP tool result). */
export interface Answer {
  status: number;
  body: unknown;
  /** True when the answer is the one stored under the idempotency key by an earlier identical request. */
  replayed?: boolean;
}

// Final answers are stored and replayed; these mean "try again" and release the key instead. A 403 is about the API
// key that asked, not the request: another key of the account may make the same request with the same
// Idempotency-Key (keys are per account and mode).
const RETRYABLE_STATUSES = new Set([402, 403, 409, 429, 500, 503]);
const isFinalStatus = (status: number) => !RETRYABLE_STATUSES.has(status);
export const isFinalError = (error: AppError) =>
  isFinalStatus(error.status) && !(error instanceof ValidationError && error.transient);

/** An operation's failure answered as a value (a stamp that ended without a UUID), like a thrown one would be. */
export function problemAnswer(docsUrl: string, error: AppError): Answer {
  return { status: error.status, body: problemBody(docsUrl, error) };
}

/**
 * Runs an idempotency-key operation: the first request executes, a concurrent one gets 409, a later identical
 * one gets the stored answer (`replayed`), a different body 422. `recover` answers for a resource created by an
 * attempt that crashed before storing its answer. `operation` names the REST route, so a key used over REST and
 * then by an MCP tool call with the same body is the same request.
 */
export async function runIdempotent(
  deps: Pick<AppDeps, 'orm' | 'config'>,
  scope: Scope,
  key: string,
  operation: string,
  body: unknown,
  execute: (key: string) => Promise<Answer>,
  recover: (resourceId: string) => Promise<Answer>,
): Promise<Answer> {
  const { orm, config } = deps;
  const begin = await beginIdempotent(
    orm.em.fork(),
    scope,
    key,
    operation,
    requestHash(operation, body ?? null),
  );
  if (begin.kind === 'replay') return { status: begin.status, body: begin.body, replayed: true };

  let answer: Answer;
  try {
    answer = begin.kind === 'recover' ? await recover(begin.resourceId) : await execute(key);
  } catch (error) {
    if (error instanceof AppError)
      await settleIdempotent(deps, scope, key, problemAnswer(config.api.docsUrl, error), isFinalError(error));
    else await releaseIdempotent(orm.em.fork(), scope, key);
    throw error;
  }
  await settleIdempotent(deps, scope, key, answer);
  return answer;
}

/** Stores a final answer under the key, or releases the key when the answer means "try again". */
export async function settleIdempotent(
  deps: Pick<AppDeps, 'orm'>,
  scope: Scope,
  key: string,
  answer: Answer,
  final = isFinalStatus(answer.status),
): Promise<void> {
  if (final) await store(deps, scope, key, answer.status, answer.body);
  else await releaseIdempotent(deps.orm.em.fork(), scope, key);
}

/**
 * Stores the answer under the key. If that fails (the database is down, or refuses the answer's text), the claim is
 * given up rather than left in flight for minutes: the caller still gets its answer, and a retry with the same key
 * either recovers the document created (the next request answers from it) or runs again when none was.
 */
async function store(
  deps: Pick<AppDeps, 'orm'>,
  scope: Scope,
  key: string,
  status: number,
  body: unknown,
): Promise<void> {
  try {
    await completeIdempotent(deps.orm.em.fork(), scope, key, status, body);
  } catch {
    // Best effort: if even this fails the claim is taken over after its in-flight timeout, as after a crash.
    await abandonIdempotent(deps.orm.em.fork(), scope, key).catch(() => undefined);
  }
}
