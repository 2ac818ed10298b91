import type { EntityManager } from '@cfdi/db';
import { emitEvent } from '../documents/events';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { toWebhookEndpointView } from './endpoints';
import { listAnswer, type PageRequest } from '../pagination';
import {
  attemptKeysetPage,
  clearEndpointFailures,
  insertAttempts,
  lockEndpointFailures,
  recordEndpointFailure,
  type AttemptRow,
  type DeliveryAttempt,
} from './webhook-repository';

export type { DeliveryAttempt } from './webhook-repository';

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
    await clearEndpointFailures(tx, [...new Set(attempts.map((a) => a.endpointId))]);
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
    const current = await lockEndpointFailures(tx, attempt.endpointId, failingWindowSeconds);
    if (!current) return { disabled: null };
    const disable = current.disabled ? null : gone ? 'gone' : current.expired ? 'failing' : null;
    const row = await recordEndpointFailure(tx, attempt.endpointId, disable);
    if (!disable) return { disabled: null };
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
  const rows = await attemptKeysetPage(em, scope, filters, page);
  return listAnswer(rows, toAttemptView);
}
