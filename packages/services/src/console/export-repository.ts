/**
 * The document exports' SQL (`document_exports`: the jobs, not the documents they read), parameters bound by the
 * driver. Services call these functions and never write SQL on this table themselves.
 */
import { newId, type EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import type { DocumentSearch } from './document-search';

export type ExportFormat = 'csv' | 'zip';
export type ExportStatus = 'running' | 'ready' | 'failed';

export interface DocumentExportRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_ids: string[] | null;
  requested_by: string | null;
  format: ExportFormat;
  search: DocumentSearch;
  status: ExportStatus;
  total: number;
  processed: number;
  file_key: string | null;
  bytes: string | null;
  error: string | null;
  /** As PostgreSQL writes it (`2026-11-28 10:20:30.123+00`): raw queries leave timestamps as text. */
  created_at: string;
  completed_at: string | null;
}

/** A running export of the scope's documents matching `search`, `total` of them. */
export async function insertExport(
  em: EntityManager,
  scope: Scope,
  job: { format: ExportFormat; search: DocumentSearch; total: number; requested_by: string | null },
): Promise<DocumentExportRow> {
  const rows: DocumentExportRow[] = await em.execute(
    `insert into document_exports (id, account_id, livemode, merchant_ids, requested_by, format, search, status, total)
     values (?, ?, ?, ?, ?, ?, ?, 'running', ?) returning *`,
    [
      newId('exp'),
      scope.accountId,
      scope.livemode,
      scope.merchantIds,
      job.requested_by,
      job.format,
      JSON.stringify(job.search),
      job.total,
    ],
  );
  return rows[0]!;
}

/** The export, in the scope's account and mode when one is given. */
export async function selectExport(
  em: EntityManager,
  id: string,
  scope?: Pick<Scope, 'accountId' | 'livemode'>,
): Promise<DocumentExportRow | undefined> {
  const rows: DocumentExportRow[] = scope
    ? await em.execute('select * from document_exports where id = ? and account_id = ? and livemode = ?', [
        id,
        scope.accountId,
        scope.livemode,
      ])
    : await em.execute('select * from document_exports where id = ?', [id]);
  return rows[0];
}

/** The scope's latest exports, newest first. */
export function selectLatestExports(
  em: EntityManager,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  limit: number,
): Promise<DocumentExportRow[]> {
  return em.execute(
    'select * from document_exports where account_id = ? and livemode = ? order by id desc limit ?',
    [scope.accountId, scope.livemode, limit],
  );
}

/** Progress only goes forward. */
export async function updateExportProgress(em: EntityManager, id: string, processed: number): Promise<void> {
  await em.execute('update document_exports set processed = greatest(processed, ?) where id = ?', [
    processed,
    id,
  ]);
}

export async function markExportReady(
  em: EntityManager,
  id: string,
  fileKey: string,
  bytes: number,
): Promise<void> {
  await em.execute(
    `update document_exports set status = 'ready', file_key = ?, bytes = ?, processed = total,
            completed_at = now() where id = ?`,
    [fileKey, bytes, id],
  );
}

/** A running export that could not be built; one that finished meanwhile stays as it is. */
export async function markExportFailed(em: EntityManager, id: string, reason: string): Promise<void> {
  await em.execute(
    `update document_exports set status = 'failed', error = ?, completed_at = now()
      where id = ? and status = 'running'`,
    [reason, id],
  );
}
