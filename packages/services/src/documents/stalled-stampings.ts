import type { EntityManager } from '@cfdi/db';

/** A page of documents still `stamping`, oldest first; `after` is the last one of the previous page. */
export interface StalledStampingsQuery {
  olderThanSeconds: number;
  limit: number;
  after?: { createdAt: string; id: string };
}

export interface StalledStamping {
  id: string;
  createdAt: string;
}

/**
 * Documents accepted (timbre reserved) more than `olderThanSeconds` ago and still `stamping`, outside reconciliation:
 * normally their workflow is still running, but the API may have died, or Temporal may have been unreachable,
 * between committing the document and starting its workflow. Documents in reconciliation are left out: only their
 * workflow sets that flag, so they have one.
 */
export async function stalledStampings(em: EntityManager, query: StalledStampingsQuery): Promise<StalledStamping[]> {
  const rows: { id: string; created_at: Date }[] = await em.execute(
    `select id, created_at from documents
      where status = 'stamping' and not needs_reconciliation and created_at < now() - make_interval(secs => ?)
        and (created_at, id) > (?::timestamptz, ?)
      order by created_at, id limit ?`,
    [query.olderThanSeconds, query.after?.createdAt ?? '-infinity', query.after?.id ?? '', query.limit],
  );
  return rows.map((row) => ({ id: row.id, createdAt: new Date(row.created_at).toISOString() }));
}
