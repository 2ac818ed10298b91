import type { EntityManager } from '@cfdi/db';
import { ALL_EVENTS } from './event-types';
import type { EventRow } from './events';

/** One delivery: an event for one endpoint subscribed to its type. */
export interface DeliveryTask {
  eventId: string;
  endpointId: string;
}

/** Outbox events leased to one dispatcher, and the deliveries they call for. */
export interface ClaimedEvents {
  events: EventRow[];
  /** Deliveries whose first attempt the dispatcher makes itself. */
  firstAttempts: DeliveryTask[];
  /**
   * Deliveries handed straight to workflows: their endpoint is failing (retrying it belongs to a workflow's backoff),
   * or an earlier dispatcher's lease on the event ran out (it died; what it delivered is left out, what it may have
   * handed to a workflow is refused as a duplicate start).
   */
  toWorkflows: DeliveryTask[];
}

/**
 * Leases up to `limit` undispatched events to the caller for `leaseSeconds` and lists their deliveries (one per event
 * and enabled endpoint subscribed to its type). Concurrent dispatchers skip each other's rows; a lease that runs out
 * (its dispatcher died before `markDispatched`) makes the event claimable again. Null when nothing is waiting.
 */
export async function claimOutboxEvents(
  em: EntityManager,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedEvents | null> {
  const events: (EventRow & { retried: boolean })[] = await em.execute(
    `update events e set dispatch_lease_until = now() + make_interval(secs => ?)
       from (select id, dispatch_lease_until is not null as retried from events
              where delivered_at is null and (dispatch_lease_until is null or dispatch_lease_until < now())
              order by id limit ? for update skip locked) claimed
      where e.id = claimed.id
      returning e.id, e.account_id, e.livemode, e.type, e.data, e.created_at, claimed.retried`,
    [leaseSeconds, limit],
  );
  if (!events.length) return null;
  const tasks: { event_id: string; endpoint_id: string; failing: boolean }[] = await em.execute(
    `select e.id as event_id, w.id as endpoint_id, w.failing_since is not null as failing
       from events e
       join webhook_endpoints w on w.account_id = e.account_id and w.livemode = e.livemode and not w.disabled and w.deleted_at is null
                               and (e.type = any(w.enabled_events) or ? = any(w.enabled_events))
      where e.id = any(?)
      order by e.id, w.id`,
    [ALL_EVENTS, events.map((e) => e.id)],
  );
  const retried = new Set(events.filter((e) => e.retried).map((e) => e.id));
  const delivered = retried.size ? await deliveredPairs(em, [...retried]) : new Set<string>();
  const claimed: ClaimedEvents = {
    events: events.map(({ retried: _, ...event }) => event),
    firstAttempts: [],
    toWorkflows: [],
  };
  for (const row of tasks) {
    const task = { eventId: row.event_id, endpointId: row.endpoint_id };
    if (!retried.has(task.eventId)) (row.failing ? claimed.toWorkflows : claimed.firstAttempts).push(task);
    else if (!delivered.has(`${task.eventId} ${task.endpointId}`)) claimed.toWorkflows.push(task);
  }
  return claimed;
}

/** "event endpoint" of the deliveries (not redeliveries) of these events that already succeeded. */
async function deliveredPairs(em: EntityManager, eventIds: string[]): Promise<Set<string>> {
  const rows: { event_id: string; endpoint_id: string }[] = await em.execute(
    'select event_id, endpoint_id from webhook_attempts where event_id = any(?) and succeeded and not redelivery',
    [eventIds],
  );
  return new Set(rows.map((r) => `${r.event_id} ${r.endpoint_id}`));
}

/** Ends the lease once every delivery of these events was attempted or handed to a workflow. */
export async function markDispatched(em: EntityManager, eventIds: string[]): Promise<void> {
  await em.execute('update events set delivered_at = now(), dispatch_lease_until = null where id = any(?)', [
    eventIds,
  ]);
}

/** Endpoints of the event's account and mode that take it now (for a redelivery), or the one asked for. */
export async function subscribedEndpoints(
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
