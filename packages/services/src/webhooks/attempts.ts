import { newId, type EntityManager } from '@cfdi/db';
import { emitEvent } from '../documents/events';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { toWebhookEndpointView, type WebhookEndpointRow } from './endpoints';
import { Conditions, keysetPage, listAnswer, type PageRequest } from '../pagination';

export interface DeliveryAttempt {
  eventId: string;
  endpointId: string;
  accountId: string;
  livemode: boolean;
  url: string;
  redelivery: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the response body. */
  responseBody: string | null;
  error: string | null;
  succeeded: boolean;
}

interface AttemptRow {
  id: string;
  livemode: boolean;
  event_id: string;
  endpoint_id: string;
  url: string;
  redelivery: boolean;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  succeeded: boolean;
  created_at: Date | string;
}

const toAttemptView = (row: AttemptRow) => ({
  id: row.id,
  object: 'webhook_attempt' as const,
  livemode: row.livemode,
  eventId: row.event_id,
  webhookEndpointId: row.endpoint_id,
  url: row.url,
  redelivery: row.redelivery,
  succeeded: row.succeeded,
  statusCode: row.status_code,
  durationMs: row.duration_ms,
  responseBody: row.response_body,
  error: row.error,
  createdAt: isoTimestamp(row.created_at),
});

export type WebhookAttemptView = ReturnType<typeof toAttemptView>;

/** Rows per insert statement: 12 parameters each, under PostgreSQL's 65,535 per statement. */
const ATTEMPTS_PER_INSERT = 1000;

async function insertAttempts(em: EntityManager, attempts: DeliveryAttempt[]): Promise<void> {
  for (let i = 0; i < attempts.length; i += ATTEMPTS_PER_INSERT) {
    const chunk = attempts.slice(i, i + ATTEMPTS_PER_INSERT);
    await em.execute(
      `insert into webhook_attempts
         (id, account_id, livemode, event_id, endpoint_id, url, redelivery, status_code, duration_ms, response_body, error, succeeded)
       values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flatMap((a) => [
        newId('wha'),
        a.accountId,
        a.livemode,
        a.eventId,
        a.endpointId,
        a.url,
        a.redelivery,
        a.statusCode,
        a.durationMs,
        a.responseBody,
        a.error,
        a.succeeded,
      ]),
    );
  }
}

/**
 * Records successful attempts (a 2xx each) and ends their endpoints' runs of failures, in one transaction: the
 * dispatcher records all of a batch's successful first attempts in one commit.
 */
export async function recordSuccessfulAttempts(
  em: EntityManager,
  attempts: DeliveryAttempt[],
): Promise<void> {
  if (!attempts.length) return;
  await em.transactional(async (tx) => {
    await insertAttempts(tx, attempts);
    await tx.execute(
      'update webhook_endpoints set failing_since = null where id = any(?) and failing_since is not null',
      [[...new Set(attempts.map((a) => a.endpointId))]],
    );
  });
}

/**
 * Records an attempt and what it means for the endpoint, in one transaction: a success ends its run of failures;
 * a 410 Gone disables it at once; a failure while it has been failing for `failingWindowSeconds` straight disables it.
 * Disabling records an `endpoint.disabled` event (once: only the write that disables it emits).
 */
export async function recordDeliveryAttempt(
  em: EntityManager,
  attempt: DeliveryAttempt,
  failingWindowSeconds: number,
): Promise<{ disabled: 'gone' | 'failing' | null }> {
  if (attempt.succeeded) {
    await recordSuccessfulAttempts(em, [attempt]);
    return { disabled: null };
  }
  return em.transactional(async (tx) => {
    await insertAttempts(tx, [attempt]);
    const gone = attempt.statusCode === 410;
    const [current]: { disabled: boolean; expired: boolean }[] = await tx.execute(
      `select disabled, coalesce(failing_since, now()) <= now() - make_interval(secs => ?) as expired
         from webhook_endpoints where id = ? and deleted_at is null for update`,
      [failingWindowSeconds, attempt.endpointId],
    );
    if (!current) return { disabled: null };
    const disable = current.disabled ? null : gone ? 'gone' : current.expired ? 'failing' : null;
    const rows: WebhookEndpointRow[] = await tx.execute(
      `update webhook_endpoints set failing_since = coalesce(failing_since, now()), disabled = disabled or ?,
              disabled_reason = coalesce(?, disabled_reason), updated_at = now()
        where id = ? returning *`,
      [disable !== null, disable, attempt.endpointId],
    );
    if (!disable) return { disabled: null };
    const row = rows[0]!;
    await emitEvent(
      tx,
      { accountId: row.account_id, livemode: row.livemode },
      'endpoint.disabled',
      toWebhookEndpointView(row),
    );
    return { disabled: disable };
  });
}

export interface AttemptFilters {
  endpointId?: string;
  eventId?: string;
}

/** Attempts of one endpoint or one event (already checked to be in the caller's scope), newest first. */
export async function listWebhookAttempts(
  em: EntityManager,
  scope: Scope,
  filters: AttemptFilters,
  page: PageRequest,
) {
  const where = new Conditions();
  if (filters.endpointId) where.add('endpoint_id = ?', filters.endpointId);
  if (filters.eventId) where.add('event_id = ?', filters.eventId);
  const rows = await keysetPage<AttemptRow>(
    em,
    {
      select: 'select * from webhook_attempts',
      table: 'webhook_attempts',
      scope,
      where,
      noun: 'webhook attempt',
    },
    page,
  );
  return listAnswer(rows, toAttemptView);
}
