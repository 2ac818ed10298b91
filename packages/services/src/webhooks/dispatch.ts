import type { EntityManager } from '@cfdi/db';
import { ALL_EVENTS } from './event-types';

/** One delivery to start: an event for one endpoint subscribed to its type. */
export interface DeliveryTask {
  eventId: string;
  endpointId: string;
}

/**
 * Claims up to `limit` events not yet dispatched, hands the deliveries they call for (one per event and enabled
 * endpoint subscribed to its type) to `start`, and marks them dispatched, in one transaction. `start` must be
 * idempotent (workflow ids derived from event and endpoint): when the commit fails after it ran, the next pass
 * starts the same deliveries again and nothing is delivered twice. Concurrent dispatchers skip each other's rows.
 * Returns how many events were claimed.
 */
export async function dispatchOutboxBatch(em: EntityManager, limit: number, start: (tasks: DeliveryTask[]) => Promise<void>): Promise<number> {
  return em.transactional(async (tx) => {
    const events: { id: string }[] = await tx.execute(
      'select id from events where delivered_at is null order by id limit ? for update skip locked', [limit]);
    if (!events.length) return 0;
    const ids = events.map((e) => e.id);
    const tasks: { event_id: string; endpoint_id: string }[] = await tx.execute(
      `select e.id as event_id, w.id as endpoint_id
         from events e
         join webhook_endpoints w on w.account_id = e.account_id and w.livemode = e.livemode and not w.disabled and w.deleted_at is null
                                 and (e.type = any(w.enabled_events) or ? = any(w.enabled_events))
        where e.id in (?)`,
      [ALL_EVENTS, ids]);
    if (tasks.length) await start(tasks.map((t) => ({ eventId: t.event_id, endpointId: t.endpoint_id })));
    await tx.execute('update events set delivered_at = now() where id in (?)', [ids]);
    return events.length;
  });
}

/** Endpoints of the event's account and mode that take it now (for a redelivery), or the one asked for. */
export async function subscribedEndpoints(em: EntityManager, event: { accountId: string; livemode: boolean; type: string }): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    `select id from webhook_endpoints where account_id = ? and livemode = ? and not disabled and deleted_at is null
        and (? = any(enabled_events) or ? = any(enabled_events)) order by id`,
    [event.accountId, event.livemode, event.type, ALL_EVENTS]);
  return rows.map((r) => r.id);
}
