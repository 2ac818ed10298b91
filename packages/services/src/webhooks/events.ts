import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError } from '../errors';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { listAnswer, type PageRequest } from '../pagination';
import {
  deleteExpiredEvents,
  eventKeysetPage,
  selectEvent,
  selectEventById,
  type EventRow,
} from './webhook-repository';

export type { EventRow } from './webhook-repository';

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
  const row = await selectEvent(em, scope, id);
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
  const rows = await eventKeysetPage(
    em,
    scope,
    {
      ...(scope.merchantIds ? { merchantIds: scope.merchantIds } : {}),
      ...(filters.type?.endsWith('.*') ? { typePrefix: filters.type.slice(0, -1) } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      ...(filters.createdFrom ? { createdFrom: filters.createdFrom } : {}),
      ...(filters.createdTo ? { createdTo: filters.createdTo } : {}),
    },
    page,
  );
  return listAnswer(rows, toEventView);
}

export async function loadEvent(em: EntityManager, id: string): Promise<EventRow | null> {
  return selectEventById(em, id);
}

/** Events and attempts older than the retention (at least 30 days) go, a bounded batch per call. */
export async function purgeExpiredEvents(
  em: EntityManager,
  retentionDays: number,
  batch = 1000,
): Promise<number> {
  return deleteExpiredEvents(em, retentionDays, batch);
}
