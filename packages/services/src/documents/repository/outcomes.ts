/** A stamp's and a cancellation's outcomes, and the reconciliations' audit rows. */
import type { EntityManager } from '@cfdi/db';
import { firstRow } from '../../sql';
import type { DocumentRow } from './rows';

/**
 * `stamping` → `stamped` with the stamp, unless another document holds its UUID (checked in the same statement);
 * `filesJson` (null when the files are not produced on demand) marks the files ready with their keys.
 */
export function markStamped(
  tx: EntityManager,
  documentId: string,
  stamp: { xml: string; uuid: string; filesJson: string | null },
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamped', stamped_xml = ?, uuid = ?, stamped_at = now(), needs_reconciliation = false,
              reservation_state = 'confirmed', files_status = case when ?::jsonb is null then files_status else 'ready' end,
              files = coalesce(files, '{}'::jsonb) || coalesce(?::jsonb, '{}'::jsonb), updated_at = now()
        where id = ? and status = 'stamping' and not exists (select 1 from documents other where other.uuid = ? and other.id <> ?)
        returning *`,
    [stamp.xml, stamp.uuid, stamp.filesJson, stamp.filesJson, documentId, stamp.uuid, documentId],
  );
}

/** `stamping` → `stamped` with the UUID alone (an operator's resolution without the PAC's copy). */
export function markStampedWithoutXml(
  tx: EntityManager,
  documentId: string,
  uuid: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamped', uuid = ?, stamped_at = now(), needs_reconciliation = false,
              reservation_state = 'confirmed', files_status = 'failed', updated_at = now()
        where id = ? and status = 'stamping' returning *`,
    [uuid, documentId],
  );
}

export function markStampFailed(
  tx: EntityManager,
  documentId: string,
  failure: { code: string; message: string },
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamp_failed', sat_code = ?, failure_detail = ?, needs_reconciliation = false,
              reservation_state = 'refunded', updated_at = now()
        where id = ? and status = 'stamping' returning *`,
    [failure.code, failure.message, documentId],
  );
}

export function flagNeedsReconciliation(
  tx: EntityManager,
  documentId: string,
  detail: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set needs_reconciliation = true, failure_detail = ?, updated_at = now()
        where id = ? and status = 'stamping' and not needs_reconciliation returning *`,
    [detail, documentId],
  );
}

export interface ReconciliationInsert {
  id: string;
  documentId: string;
  resolution: 'stamped' | 'not_stamped';
  uuid: string | null;
  resolvedBy: string;
  note: string | null;
}

/** Records a reconciliation's resolution; the same decision recorded again keeps the one row. */
export async function insertReconciliation(em: EntityManager, row: ReconciliationInsert): Promise<void> {
  await em.execute(
    'insert into reconciliations (id, document_id, resolution, uuid, resolved_by, note) values (?, ?, ?, ?, ?, ?) on conflict do nothing',
    [row.id, row.documentId, row.resolution, row.uuid, row.resolvedBy, row.note],
  );
}

export interface ReconciliationRow {
  id: string;
  resolution: string;
  uuid: string | null;
  resolved_by: string;
  note: string | null;
  created_at: string;
}

export function selectReconciliations(em: EntityManager, documentId: string): Promise<ReconciliationRow[]> {
  return em.execute<ReconciliationRow[]>('select * from reconciliations where document_id = ? order by id', [
    documentId,
  ]);
}

// ---- Cancellation requests (the row type is the caller's view of `cancellation`)

/** Records a cancellation request: the previous `cancellation` kept aside, the new one and its timbre's consume. */
export async function markCancellationRequested<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  cancellationJson: string,
  reservationId: string,
): Promise<Row> {
  const rows: Row[] = await tx.execute(
    `update documents set cancellation_previous = cancellation, cancellation = ?, cancel_reservation_id = ?, updated_at = now()
        where id = ? returning *`,
    [cancellationJson, reservationId, documentId],
  );
  return rows[0]!;
}

/** The SAT accepted the pending request: the status and what `cancellation` gains (`changesJson`). */
export function markCancellationSubmitted<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  status: 'cancelled' | 'cancel_pending',
  changesJson: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set status = ?, cancellation = cancellation || ?::jsonb, updated_at = now()
        where id = ? and status = 'stamped' and cancellation->>'status' = 'pending' returning *`,
    [status, changesJson, documentId],
  );
}

/** The receiver answered a `cancel_pending` request (or the window passed). */
export function markCancellationResolved<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  status: 'cancelled' | 'stamped',
  changesJson: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set status = ?, cancellation = cancellation || ?::jsonb, updated_at = now()
        where id = ? and status = 'cancel_pending' returning *`,
    [status, changesJson, documentId],
  );
}

/** The pending request never took effect: `cancellation` goes back to what it was before it. */
export function restorePreviousCancellation<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set cancellation = cancellation_previous, cancellation_previous = null, updated_at = now()
        where id = ? and status = 'stamped' and cancellation->>'status' = 'pending' returning *`,
    [documentId],
  );
}
