import type { EntityManager } from '@cfdi/db';
import { countStalled, selectStalledDocuments, type StalledWork } from './repository';

/**
 * Work the API accepted (document committed, timbre reserved) and then hands to a workflow (`StalledWork`): normally
 * that workflow runs, but the API may have died, or Temporal may have been unreachable, between the commit and the start.
 */
export type { StalledWork };

/** Younger work is still in the API's hands (it starts the workflow right after committing the document). */
export const STALLED_AFTER_SECONDS = 60;

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
  const rows = await selectStalledDocuments(em, work, query);
  return rows.map((row) => ({ id: row.id, since: new Date(row.since).toISOString() }));
}

/** How many documents' work has waited longer than the sweep allows, per kind: for /metrics. */
export async function countStalledDocuments(em: EntityManager, work: StalledWork): Promise<number> {
  return countStalled(em, work, STALLED_AFTER_SECONDS);
}
