import type { EntityManager } from '@cfdi/db';
import type { EventRow } from './events';
import {
  deliveriesOf,
  leaseOutboxEvents,
  markEventsDispatched,
  subscribedEndpointIds,
  succeededDeliveries,
} from './webhook-repository';

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
  const events = await leaseOutboxEvents(em, limit, leaseSeconds);
  if (!events.length) return null;
  const tasks = await deliveriesOf(
    em,
    events.map((e) => e.id),
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
  const rows = await succeededDeliveries(em, eventIds);
  return new Set(rows.map((r) => `${r.event_id} ${r.endpoint_id}`));
}

/** Ends the lease once every delivery of these events was attempted or handed to a workflow. */
export async function markDispatched(em: EntityManager, eventIds: string[]): Promise<void> {
  await markEventsDispatched(em, eventIds);
}

/** Endpoints of the event's account and mode that take it now (for a redelivery), or the one asked for. */
export async function subscribedEndpoints(
  em: EntityManager,
  event: { accountId: string; livemode: boolean; type: string },
): Promise<string[]> {
  return subscribedEndpointIds(em, event);
}
