/**
 * The webhooks aggregate's SQL (endpoints, the events outbox, delivery attempts), parameters bound by the driver.
 * Services call these functions and never write SQL on these tables themselves. Events are inserted with the
 * change they describe (`emitEvent`, in the documents' transaction).
 */
import { newId, type EntityManager } from '@cfdi/db';
import type { Tenant } from '../scope';
import { Conditions, keysetPage, type Page, type PageRequest } from '../pagination';
import { ALL_EVENTS } from './event-types';
import { anyRow, firstRow } from '../sql';

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

export interface WebhookEndpointRow {
  id: string;
  account_id: string;
  livemode: boolean;
  url: string;
  description: string | null;
  enabled_events: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  disabled: boolean;
  disabled_reason: 'requested' | 'gone' | 'failing' | null;
  failing_since: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface EventRow {
  id: string;
  account_id: string;
  livemode: boolean;
  type: string;
  data: { object: Record<string, unknown> };
  created_at: Date | string;
}

export interface AttemptRow {
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

export async function selectLiveEndpoint(
  em: EntityManager,
  scope: Tenant,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  return firstRow<WebhookEndpointRow>(
    em,
    'select * from webhook_endpoints where id = ? and account_id = ? and livemode = ? and deleted_at is null',
    [id, scope.accountId, scope.livemode],
  );
}

export async function countLiveEndpoints(em: EntityManager, scope: Tenant): Promise<number> {
  const [count]: { n: number }[] = await em.execute(
    'select count(*)::int as n from webhook_endpoints where account_id = ? and livemode = ? and deleted_at is null',
    [scope.accountId, scope.livemode],
  );
  return count?.n ?? 0;
}

export interface EndpointInsert {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  /** Sealed with the master key. */
  secret: string;
}

export async function insertEndpoint(
  em: EntityManager,
  scope: Tenant,
  row: EndpointInsert,
): Promise<WebhookEndpointRow> {
  const rows: WebhookEndpointRow[] = await em.execute(
    `insert into webhook_endpoints (id, account_id, livemode, url, description, enabled_events, secret)
     values (?, ?, ?, ?, ?, ?::text[], ?) returning *`,
    [row.id, scope.accountId, scope.livemode, row.url, row.description, row.enabled_events, row.secret],
  );
  return rows[0]!;
}

export function endpointKeysetPage(
  em: EntityManager,
  scope: Tenant,
  page: PageRequest,
): Promise<Page<WebhookEndpointRow>> {
  return keysetPage<WebhookEndpointRow>(
    em,
    {
      select: 'select * from webhook_endpoints',
      table: 'webhook_endpoints',
      scope,
      where: new Conditions().add('deleted_at is null'),
      noun: 'webhook endpoint',
    },
    page,
  );
}

/** What an update changes; `disabled` true keeps an earlier reason, false clears the failures too. */
export interface EndpointChanges {
  url?: string;
  enabledEvents?: string[];
  description?: string | null;
  disabled?: boolean;
}

/** Applies the changes to a live endpoint and returns it; undefined when it is absent or deleted. */
export async function updateEndpoint(
  em: EntityManager,
  scope: Tenant,
  id: string,
  input: EndpointChanges,
): Promise<WebhookEndpointRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (clause: string, ...values: unknown[]) => {
    sets.push(clause);
    params.push(...values);
  };
  if (input.url !== undefined) set('url = ?', input.url);
  if (input.enabledEvents !== undefined) set('enabled_events = ?::text[]', input.enabledEvents);
  if (input.description !== undefined) set('description = ?', input.description);
  if (input.disabled === true)
    set("disabled = true, disabled_reason = coalesce(disabled_reason, 'requested')");
  if (input.disabled === false) set('disabled = false, disabled_reason = null, failing_since = null');
  return firstRow<WebhookEndpointRow>(
    em,
    `update webhook_endpoints set ${[...sets, 'updated_at = now()'].join(', ')}
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning *`,
    [...params, id, scope.accountId, scope.livemode],
  );
}

/** Soft delete; false when the endpoint is absent or already deleted. */
export async function softDeleteEndpoint(em: EntityManager, scope: Tenant, id: string): Promise<boolean> {
  return anyRow(
    em,
    'update webhook_endpoints set deleted_at = now(), updated_at = now() where id = ? and account_id = ? and livemode = ? and deleted_at is null returning id',
    [id, scope.accountId, scope.livemode],
  );
}

/** The new (sealed) secret signs; the current one keeps signing beside it for `overlapHours`. */
export async function rotateEndpointSecret(
  em: EntityManager,
  scope: Tenant,
  id: string,
  sealedSecret: string,
  overlapHours: number,
): Promise<WebhookEndpointRow | undefined> {
  return firstRow<WebhookEndpointRow>(
    em,
    `update webhook_endpoints set previous_secret = secret, secret = ?, previous_secret_expires_at = now() + make_interval(hours => ?), updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning *`,
    [sealedSecret, overlapHours, id, scope.accountId, scope.livemode],
  );
}

/** Endpoints by id, deleted ones included. */
export function selectEndpointsById(
  em: EntityManager,
  endpointIds: string[],
): Promise<(WebhookEndpointRow & { deleted_at: Date | null })[]> {
  return em.execute('select * from webhook_endpoints where id = any(?)', [endpointIds]);
}

/** Enabled endpoints of the account and mode subscribed to the type (or to every event), by id. */
export async function subscribedEndpointIds(
  em: EntityManager,
  event: { accountId: string; livemode: boolean; type: string },
): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    `select id from webhook_endpoints where account_id = ? and livemode = ? and not disabled and deleted_at is null
        and (? = any(enabled_events) or ? = any(enabled_events)) order by id`,
    [event.accountId, event.livemode, event.type, ALL_EVENTS],
  );
  return rows.map((r) => r.id);
}

/** Ends the failures of these endpoints (after a success). */
export async function clearEndpointFailures(em: EntityManager, endpointIds: string[]): Promise<void> {
  await em.execute(
    'update webhook_endpoints set failing_since = null where id = any(?) and failing_since is not null',
    [endpointIds],
  );
}

/** Locks a live endpoint and says whether it is disabled and has failed for `failingWindowSeconds` straight. */
export async function lockEndpointFailures(
  em: EntityManager,
  endpointId: string,
  failingWindowSeconds: number,
): Promise<{ disabled: boolean; expired: boolean } | undefined> {
  const [current]: { disabled: boolean; expired: boolean }[] = await em.execute(
    `select disabled, coalesce(failing_since, now()) <= now() - make_interval(secs => ?) as expired
       from webhook_endpoints where id = ? and deleted_at is null for update`,
    [failingWindowSeconds, endpointId],
  );
  return current;
}

/** Records a failure (the run of failures starts now unless it started before); disables it for `disable`. */
export async function recordEndpointFailure(
  em: EntityManager,
  endpointId: string,
  disable: 'gone' | 'failing' | null,
): Promise<WebhookEndpointRow> {
  const rows: WebhookEndpointRow[] = await em.execute(
    `update webhook_endpoints set failing_since = coalesce(failing_since, now()), disabled = disabled or ?,
            disabled_reason = coalesce(?, disabled_reason), updated_at = now()
      where id = ? returning *`,
    [disable !== null, disable, endpointId],
  );
  return rows[0]!;
}

/** Whether the live endpoint is disabled; undefined when it is absent or deleted. */
export async function selectEndpointDisabled(
  em: EntityManager,
  scope: Tenant,
  endpointId: string,
): Promise<boolean | undefined> {
  const rows: { disabled: boolean }[] = await em.execute(
    'select disabled from webhook_endpoints where id = ? and account_id = ? and livemode = ? and deleted_at is null',
    [endpointId, scope.accountId, scope.livemode],
  );
  return rows[0]?.disabled;
}

/** Writes an event to the outbox (`data` is its JSON), in the caller's transaction. */
export async function insertEvent(
  em: EntityManager,
  scope: Tenant,
  event: { id: string; type: string; data: string },
): Promise<void> {
  await em.execute('insert into events (id, account_id, livemode, type, data) values (?, ?, ?, ?, ?)', [
    event.id,
    scope.accountId,
    scope.livemode,
    event.type,
    event.data,
  ]);
}

export async function selectEvent(
  em: EntityManager,
  scope: Tenant,
  id: string,
): Promise<EventRow | undefined> {
  return firstRow<EventRow>(em, 'select * from events where id = ? and account_id = ? and livemode = ?', [
    id,
    scope.accountId,
    scope.livemode,
  ]);
}

export async function selectEventById(em: EntityManager, id: string): Promise<EventRow | null> {
  const rows: EventRow[] = await em.execute('select * from events where id = ?', [id]);
  return rows[0] ?? null;
}

export interface EventListFilters {
  /** Only events about these merchants (`data.object.merchantId`). */
  merchantIds?: string[];
  /** A type prefix (`invoice.` for `invoice.*`). */
  typePrefix?: string;
  type?: string;
  createdFrom?: string;
  createdTo?: string;
}

export function eventKeysetPage(
  em: EntityManager,
  scope: Tenant,
  filters: EventListFilters,
  page: PageRequest,
): Promise<Page<EventRow>> {
  const where = new Conditions();
  if (filters.merchantIds)
    where.add(
      "data->'object'->>'merchantId' = any(?)",
      filters.merchantIds.length ? filters.merchantIds : [''],
    );
  if (filters.typePrefix !== undefined)
    where.add('type like ?', `${filters.typePrefix.replace(/[\\%_]/g, '\\$&')}%`);
  else if (filters.type) where.add('type = ?', filters.type);
  if (filters.createdFrom) where.add('created_at >= ?', filters.createdFrom);
  if (filters.createdTo) where.add('created_at <= ?', filters.createdTo);
  return keysetPage<EventRow>(
    em,
    { select: 'select * from events', table: 'events', scope, where, noun: 'event' },
    page,
  );
}

/** Events and attempts older than the retention go, a bounded batch of each; returns how many went. */
export async function deleteExpiredEvents(
  em: EntityManager,
  retentionDays: number,
  batch: number,
): Promise<number> {
  const attempts: unknown[] = await em.execute(
    `delete from webhook_attempts where id in (select id from webhook_attempts where created_at < now() - make_interval(days => ?) limit ?) returning id`,
    [retentionDays, batch],
  );
  const events: unknown[] = await em.execute(
    `delete from events where id in (select id from events where created_at < now() - make_interval(days => ?) and delivered_at is not null limit ?) returning id`,
    [retentionDays, batch],
  );
  return attempts.length + events.length;
}

/** Leases up to `limit` undispatched events for `leaseSeconds`; `retried` when an earlier lease ran out. */
export function leaseOutboxEvents(
  em: EntityManager,
  limit: number,
  leaseSeconds: number,
): Promise<(EventRow & { retried: boolean })[]> {
  return em.execute(
    `update events e set dispatch_lease_until = now() + make_interval(secs => ?)
       from (select id, dispatch_lease_until is not null as retried from events
              where delivered_at is null and (dispatch_lease_until is null or dispatch_lease_until < now())
              order by id limit ? for update skip locked) claimed
      where e.id = claimed.id
      returning e.id, e.account_id, e.livemode, e.type, e.data, e.created_at, claimed.retried`,
    [leaseSeconds, limit],
  );
}

/** One row per event and enabled endpoint subscribed to its type; `failing` while the endpoint fails. */
export function deliveriesOf(
  em: EntityManager,
  eventIds: string[],
): Promise<{ event_id: string; endpoint_id: string; failing: boolean }[]> {
  return em.execute(
    `select e.id as event_id, w.id as endpoint_id, w.failing_since is not null as failing
       from events e
       join webhook_endpoints w on w.account_id = e.account_id and w.livemode = e.livemode and not w.disabled and w.deleted_at is null
                               and (e.type = any(w.enabled_events) or ? = any(w.enabled_events))
      where e.id = any(?)
      order by e.id, w.id`,
    [ALL_EVENTS, eventIds],
  );
}

/** Ends the lease of these events: every delivery was attempted or handed to a workflow. */
export async function markEventsDispatched(em: EntityManager, eventIds: string[]): Promise<void> {
  await em.execute('update events set delivered_at = now(), dispatch_lease_until = null where id = any(?)', [
    eventIds,
  ]);
}

/** The deliveries (not redeliveries) of these events that already succeeded. */
export function succeededDeliveries(
  em: EntityManager,
  eventIds: string[],
): Promise<{ event_id: string; endpoint_id: string }[]> {
  return em.execute(
    'select event_id, endpoint_id from webhook_attempts where event_id = any(?) and succeeded and not redelivery',
    [eventIds],
  );
}

const ATTEMPTS_PER_INSERT = 1000;

export async function insertAttempts(em: EntityManager, attempts: DeliveryAttempt[]): Promise<void> {
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

export function attemptKeysetPage(
  em: EntityManager,
  scope: Tenant,
  filters: { endpointId?: string; eventId?: string },
  page: PageRequest,
): Promise<Page<AttemptRow>> {
  const where = new Conditions();
  if (filters.endpointId) where.add('endpoint_id = ?', filters.endpointId);
  if (filters.eventId) where.add('event_id = ?', filters.eventId);
  return keysetPage<AttemptRow>(
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
}
