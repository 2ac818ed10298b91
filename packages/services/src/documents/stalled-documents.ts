import type { EntityManager } from '@cfdi/db';

/**
 * Work the API accepted (document committed, timbre reserved) and then hands to a workflow: normally that workflow
 * runs, but the API may have died, or Temporal may have been unreachable, between the commit and the start.
 * - `stamping`: still stamping, outside reconciliation (only its workflow sets that flag, so it has one);
 * - `cancellation`: a cancellation request recorded (`cancellation.status` pending) on a still-stamped document.
 */
export type StalledWork = 'stamping' | 'cancellation';

/** Younger work is still in the API's hands (it starts the workflow right after committing the document). */
export const STALLED_AFTER_SECONDS = 60;

const SINCE: Record<StalledWork, { since: string; where: string }> = {
  stamping: { since: 'created_at', where: "status = 'stamping' and not needs_reconciliation" },
  // The request's own update set updated_at (the database's clock, like created_at; requestedAt is the API's).
  cancellation: { since: 'updated_at', where: "status = 'stamped' and cancellation->>'status' = 'pending'" },
};

/** A page of documents whose work has waited more than `olderThanSeconds`, oldest first; `after` ends the previous page. */
export interface StalledDocumentsQuery {
  olderThanSeconds: number;
  limit: number;
  after?: StalledDocument;
}

export interface StalledDocument {
  id: string;
  since: string;
}

export async function stalledDocuments(
  em: EntityManager,
  work: StalledWork,
  query: StalledDocumentsQuery,
): Promise<StalledDocument[]> {
  const { since, where } = SINCE[work];
  const rows: { id: string; since: Date }[] = await em.execute(
    `select id, ${since} as since from documents
      where ${where} and ${since} < now() - make_interval(secs => ?) and (${since}, id) > (?::timestamptz, ?)
      order by ${since}, id limit ?`,
    [query.olderThanSeconds, query.after?.since ?? '-infinity', query.after?.id ?? '', query.limit],
  );
  return rows.map((row) => ({ id: row.id, since: new Date(row.since).toISOString() }));
}

/** How many documents' work has waited longer than the sweep allows, per kind: for /metrics. */
export async function countStalledDocuments(em: EntityManager, work: StalledWork): Promise<number> {
  const { since, where } = SINCE[work];
  const rows: { n: number }[] = await em.execute(
    `select count(*)::int as n from documents where ${where} and ${since} < now() - make_interval(secs => ?)`,
    [STALLED_AFTER_SECONDS],
  );
  return rows[0]?.n ?? 0;
}
