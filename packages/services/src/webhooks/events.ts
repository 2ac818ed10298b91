import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError } from '../errors';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { Conditions, keysetPage, listAnswer, type PageRequest } from '../pagination';

export interface EventRow {
  id: string;
  account_id: string;
  livemode: boolean;
  type: string;
  data: { object: Record<string, unknown> };
  created_at: Date | string;
}

/** The event as listed, retrieved and delivered: `data.object` is the resource as it was when the event happened. */
export function toEventView(row: EventRow) {
  return {
    id: row.id,
    object: 'event' as const,
    type: row.type,
    livemode: row.livemode,
    createdAt: isoTimestamp(row.created_at),
    data: row.data,
  };
}

export type EventView = ReturnType<typeof toEventView>;

const merchantOf = (row: EventRow) =>
  typeof row.data.object?.merchantId === 'string' ? row.data.object.merchantId : null;

/** 404 outside the key's account and mode; 403 for a key restricted to other merchants (or events of no merchant). */
export async function retrieveEvent(em: EntityManager, scope: Scope, id: string): Promise<EventRow> {
  const rows: EventRow[] = await em.execute(
    'select * from events where id = ? and account_id = ? and livemode = ?',
    [id, scope.accountId, scope.livemode],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError('event', id);
  const merchantId = merchantOf(row);
  if (scope.merchantIds && !(merchantId && scope.merchantIds.includes(merchantId))) {
    throw new ForbiddenError(
      `This API key is restricted to some merchants; event ${id} is not about one of them.`,
    );
  }
  return row;
}

export interface EventFilters {
  /** An exact type, or a family such as `invoice.*`. */
  type?: string;
  createdFrom?: string;
  createdTo?: string;
}

export async function listEvents(em: EntityManager, scope: Scope, filters: EventFilters, page: PageRequest) {
  const where = new Conditions();
  if (scope.merchantIds)
    where.add("data->'object'->>'merchantId' = any(?)", scope.merchantIds.length ? scope.merchantIds : ['']);
  if (filters.type?.endsWith('.*'))
    where.add('type like ?', `${filters.type.slice(0, -1).replace(/[\\%_]/g, '\\$&')}%`);
  else if (filters.type) where.add('type = ?', filters.type);
  if (filters.createdFrom) where.add('created_at >= ?', filters.createdFrom);
  if (filters.createdTo) where.add('created_at <= ?', filters.createdTo);
  const rows = await keysetPage<EventRow>(
    em,
    { select: 'select * from events', table: 'events', scope, where, noun: 'event' },
    page,
  );
  return listAnswer(rows, toEventView);
}

export async function loadEvent(em: EntityManager, id: string): Promise<EventRow | null> {
  const rows: EventRow[] = await em.execute('select * from events where id = ?', [id]);
  return rows[0] ?? null;
}

/** Events and attempts older than the retention (at least 30 days) go, a bounded batch per call. */
export async function purgeExpiredEvents(
  em: EntityManager,
  retentionDays: number,
  batch = 1000,
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
