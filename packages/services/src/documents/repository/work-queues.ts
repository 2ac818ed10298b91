/** The files' status, the operators' queues and the stalled-work sweep. */
import type { EntityManager } from '@cfdi/db';
import { countedPage, type CountedPage, type ListWindow } from '../../pagination';
import type { DocumentRow } from './rows';

export async function markFilesFailed(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(`update documents set files_status = 'failed', updated_at = now() where id = ?`, [
    documentId,
  ]);
}

export async function markFilesProcessing(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'processing', updated_at = now() where id = ? and files_status <> 'ready'`,
    [documentId],
  );
}

/** The files ready, with their storage keys (`keysJson`) merged into `files`. */
export async function markFilesReady(em: EntityManager, documentId: string, keysJson: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'ready', files = coalesce(files, '{}'::jsonb) || ?::jsonb, updated_at = now() where id = ?`,
    [keysJson, documentId],
  );
}

/** `ready` → `failed`: a download that promised files found them unrenderable. */
export async function markReadyFilesFailed(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'failed', updated_at = now() where id = ? and files_status = 'ready'`,
    [documentId],
  );
}

/** `failed` → `ready`: rendered again on a download. */
export async function markFailedFilesReady(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'ready', updated_at = now() where id = ? and files_status = 'failed'`,
    [documentId],
  );
}

/** Waits for (and takes) the per-document lock of `lockKey` until the transaction ends. */
export async function lockDocumentWork(
  tx: EntityManager,
  lockKey: number,
  documentId: string,
): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [lockKey, documentId]);
}

// ---- Operators' queues and the stalled-work sweep

const AWAITING_RECONCILIATION = `select * from documents where needs_reconciliation and status = 'stamping' order by id`;
const FAILED_FILES = `select * from documents where files_status = 'failed' and uuid is not null order by id`;

export const selectAwaitingReconciliation = (em: EntityManager): Promise<DocumentRow[]> =>
  em.execute(AWAITING_RECONCILIATION);

export const awaitingReconciliationCountedPage = (
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<DocumentRow>> => countedPage(em, AWAITING_RECONCILIATION, [], window);

export const selectFailedFiles = (em: EntityManager): Promise<DocumentRow[]> => em.execute(FAILED_FILES);

export const failedFilesCountedPage = (
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<DocumentRow>> => countedPage(em, FAILED_FILES, [], window);

/**
 * Work the API accepted (document committed, timbre reserved) and then hands to a workflow:
 * - `stamping`: still stamping, outside reconciliation (only its workflow sets that flag, so it has one);
 * - `cancellation`: a cancellation request recorded (`cancellation.status` pending) on a still-stamped document.
 */
export type StalledWork = 'stamping' | 'cancellation';

const SINCE: Record<StalledWork, { since: string; where: string }> = {
  stamping: { since: 'created_at', where: "status = 'stamping' and not needs_reconciliation" },
  // The request's own update set updated_at (the database's clock, like created_at; requestedAt is the API's).
  cancellation: { since: 'updated_at', where: "status = 'stamped' and cancellation->>'status' = 'pending'" },
};

/** A page of the documents whose work has waited more than `olderThanSeconds`, oldest first, after `after`. */
export function selectStalledDocuments(
  em: EntityManager,
  work: StalledWork,
  query: { olderThanSeconds: number; limit: number; after?: { since: string; id: string } },
): Promise<{ id: string; since: Date }[]> {
  const { since, where } = SINCE[work];
  return em.execute(
    `select id, ${since} as since from documents
      where ${where} and ${since} < now() - make_interval(secs => ?) and (${since}, id) > (?::timestamptz, ?)
      order by ${since}, id limit ?`,
    [query.olderThanSeconds, query.after?.since ?? '-infinity', query.after?.id ?? '', query.limit],
  );
}

export async function countStalled(
  em: EntityManager,
  work: StalledWork,
  olderThanSeconds: number,
): Promise<number> {
  const { since, where } = SINCE[work];
  const rows: { n: number }[] = await em.execute(
    `select count(*)::int as n from documents where ${where} and ${since} < now() - make_interval(secs => ?)`,
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}
