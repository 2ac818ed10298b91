import { createHash } from 'node:crypto';
import type { EntityManager } from '@cfdi/db';
import { AppError, ConflictError, ValidationError } from './errors';
import type { LedgerScope } from './ledger';
import { assertMerchantAccess } from './merchants';
import type { Scope } from './scope';

export type IdempotencyBegin =
  | { kind: 'execute' }
  | { kind: 'replay'; status: number; body: unknown }
  /** A previous attempt died after creating its resource: answer with the resource's current state. */
  | { kind: 'recover'; resourceId: string };

/** How long an in-flight claim protects a key before another request may take over a crashed attempt. */
const LOCK_SECONDS = 120;

export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(operation).update('\0').update(canonicalJson(body)).digest('hex');
}

/** JSON with sorted keys, so the same body in a different key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Why an Idempotency-Key header value cannot be used, or null when it can. */
export function idempotencyKeyProblem(key: string | undefined): string | null {
  if (key === undefined || key.length === 0)
    return 'The Idempotency-Key header is required for this operation.';
  if (key.length > 255) return 'The Idempotency-Key header must have at most 255 characters.';
  return null;
}

export function checkIdempotencyKey(key: string | undefined): string {
  const problem = idempotencyKeyProblem(key);
  if (problem) throw ValidationError.field('/headers/idempotency-key', problem);
  return key!;
}

/**
 * Claims (account, mode, key) for one request. The insert is the arbiter: of two identical requests arriving in
 * the same millisecond exactly one inserts; the other sees `in_flight` (409) or, once done, the stored response.
 */
export async function beginIdempotent(
  em: EntityManager,
  scope: Scope,
  key: string,
  operation: string,
  hash: string,
): Promise<IdempotencyBegin> {
  const inserted: unknown[] = await em.execute(
    `insert into idempotency_keys (account_id, livemode, key, operation, request_hash, state, locked_until)
     values (?, ?, ?, ?, ?, 'in_flight', now() + interval '${LOCK_SECONDS} seconds')
     on conflict do nothing returning key`,
    [scope.accountId, scope.livemode, key, operation, hash],
  );
  if (inserted.length) return { kind: 'execute' };

  const rows: {
    request_hash: string;
    state: string;
    response_status: number | null;
    response_body: unknown;
    resource_id: string | null;
    expired: boolean;
  }[] = await em.execute(
    `select request_hash, state, response_status, response_body, resource_id, locked_until < now() as expired
         from idempotency_keys where account_id = ? and livemode = ? and key = ?`,
    [scope.accountId, scope.livemode, key],
  );
  const row = rows[0];
  if (!row) return beginIdempotent(em, scope, key, operation, hash); // released between our insert and select
  if (row.request_hash !== hash) {
    throw new AppError(
      422,
      'idempotency_key_reuse',
      'Idempotency key reuse',
      'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
    );
  }
  await assertResourceAccess(em, scope, row.resource_id);
  if (row.state === 'completed')
    return { kind: 'replay', status: row.response_status!, body: row.response_body };
  if (!row.expired)
    throw new ConflictError(
      'request_in_flight',
      'A request with this Idempotency-Key is still being processed; retry later.',
    );
  // The first attempt crashed. Take the claim over atomically; a resource it created is answered, never re-created.
  const taken: unknown[] = await em.execute(
    `update idempotency_keys set locked_until = now() + interval '${LOCK_SECONDS} seconds'
      where account_id = ? and livemode = ? and key = ? and state = 'in_flight' and locked_until < now() returning key`,
    [scope.accountId, scope.livemode, key],
  );
  if (!taken.length)
    throw new ConflictError(
      'request_in_flight',
      'A request with this Idempotency-Key is still being processed; retry later.',
    );
  return row.resource_id ? { kind: 'recover', resourceId: row.resource_id } : { kind: 'execute' };
}

/**
 * A key restricted to some merchants gets no answer about another merchant's document through a key another API key
 * of the account used: 403, as for the document itself, and the stored answer stays for the keys that may see it.
 */
async function assertResourceAccess(
  em: EntityManager,
  scope: Scope,
  resourceId: string | null,
): Promise<void> {
  if (!scope.merchantIds || !resourceId) return;
  const rows: { merchant_id: string }[] = await em.execute(
    'select merchant_id from documents where id = ? and account_id = ? and livemode = ?',
    [resourceId, scope.accountId, scope.livemode],
  );
  if (rows[0]) assertMerchantAccess(scope, rows[0].merchant_id);
}

/** Records the resource created under the key, inside the transaction that creates it. */
export async function attachIdempotentResource(
  em: EntityManager,
  scope: LedgerScope,
  key: string,
  resourceId: string,
): Promise<void> {
  await em.execute(
    'update idempotency_keys set resource_id = ? where account_id = ? and livemode = ? and key = ?',
    [resourceId, scope.accountId, scope.livemode, key],
  );
}

/** Stores the final response; later requests with the same key and body get it back. */
export async function completeIdempotent(
  em: EntityManager,
  scope: LedgerScope,
  key: string,
  status: number,
  body: unknown,
): Promise<void> {
  await em.execute(
    `update idempotency_keys set state = 'completed', response_status = ?, response_body = ? where account_id = ? and livemode = ? and key = ?`,
    [status, JSON.stringify(body), scope.accountId, scope.livemode, key],
  );
}

/** Forgets the key, for outcomes the client should retry with the same key (503, 402, 5xx). */
export async function releaseIdempotent(em: EntityManager, scope: LedgerScope, key: string): Promise<void> {
  await em.execute(
    `delete from idempotency_keys where account_id = ? and livemode = ? and key = ? and state = 'in_flight'`,
    [scope.accountId, scope.livemode, key],
  );
}

/**
 * Gives up a claim whose answer could not be stored: a key that created nothing is forgotten; one bound to a
 * document becomes takeable at once, so the next request with it recovers that document instead of waiting.
 */
export async function abandonIdempotent(em: EntityManager, scope: LedgerScope, key: string): Promise<void> {
  await em.execute(
    `delete from idempotency_keys where account_id = ? and livemode = ? and key = ? and state = 'in_flight' and resource_id is null`,
    [scope.accountId, scope.livemode, key],
  );
  await em.execute(
    `update idempotency_keys set locked_until = now() where account_id = ? and livemode = ? and key = ? and state = 'in_flight'`,
    [scope.accountId, scope.livemode, key],
  );
}
