import { newId, type EntityManager } from '@cfdi/db';
import { refundReservation } from '../ledger';
import { loadDocumentById, type DocumentRow } from './document-row';
import {
  insertReconciliation,
  flagNeedsReconciliation,
  markStampFailed,
  markStamped,
  markStampedWithoutXml,
  selectOtherHolderOfUuid,
  uuidHeldByAnother,
} from './repository';
import { emitEvent } from './events';
import { eventPrefix, toDocumentView as eventObject } from './document-view';
import { restoreInvoiceBalance } from './invoice-balance';
import { storedFileKeys } from './files';
import { emitCoveredReceiptEvents, reopenReceiptsOf } from '../receipts/reopen-receipts';

const scopeOf = (row: DocumentRow) => ({ accountId: row.account_id, livemode: row.livemode });

export interface StampedDocument {
  xml: string;
  uuid: string;
}

/**
 * The id of another document of the same account and mode holding this stamp (UUIDs are unique), or null. Scoped:
 * a document of another tenant is never named (see `uuidHeldByAnother` for the unscoped yes/no).
 */
export async function otherHolderOfUuid(
  em: EntityManager,
  uuid: string,
  documentId: string,
): Promise<string | null> {
  return selectOtherHolderOfUuid(em, uuid.toUpperCase(), documentId);
}

/**
 * `stamping` → `stamped`: stores the stamped XML and UUID and confirms the reservation. Idempotent: only the
 * first call changes the row (a retried activity or a late reconciliation finds it already stamped).
 * `filesOnDemand` (the document as loaded) marks the files `ready` with their keys in the same write: they are
 * produced on first download (see `createDocumentFileProducer`), so nothing is rendered or stored on the stamping path.
 * The receipts the document covers get their events in the same transaction (`portalUrl` builds their selfInvoiceUrl).
 */
export async function recordStamped(
  em: EntityManager,
  documentId: string,
  stamped: StampedDocument,
  options: {
    filesOnDemand?: Pick<DocumentRow, 'account_id' | 'livemode' | 'id' | 'type' | 'kind'>;
    portalUrl: string;
  },
): Promise<DocumentRow> {
  const uuid = stamped.uuid.toUpperCase();
  const filesJson = options.filesOnDemand
    ? JSON.stringify(storedFileKeys(options.filesOnDemand, uuid))
    : null;
  const row = await em.transactional(async (tx) => {
    // Another document holding this UUID is checked in the same statement; the rare miss is told apart below.
    const stampedRow = await markStamped(tx, documentId, { xml: stamped.xml, uuid, filesJson });
    if (stampedRow) {
      await emitEvent(tx, scopeOf(stampedRow), `${eventPrefix(stampedRow)}.stamped`, eventObject(stampedRow));
      await emitCoveredReceiptEvents(tx, stampedRow, options.portalUrl);
    }
    return stampedRow;
  });
  if (row) return row;
  // Whether any other document, of any tenant, holds this stamp: a yes/no that names nobody.
  if (await uuidHeldByAnother(em, uuid, documentId)) {
    // The PAC answered "already stamped" with another document's stamp: this document's CFDI is byte-identical to
    // that one (same issuer, serie, folio, Fecha and content). It has no stamp of its own and never will. Sealing
    // makes this unreachable for documents it sealed (sealed_fingerprints); the message names nothing of the other
    // document, which may belong to another tenant.
    return recordStampFailure(em, documentId, {
      code: 'duplicate_cfdi',
      message: 'The PAC returned the stamp of another document: an identical CFDI was already stamped.',
    });
  }
  return loadDocumentById(em, documentId);
}

/**
 * `stamping` → `stamp_failed` with the refund of the reservation, in one transaction. Idempotent: the refund is
 * keyed by the consume it reverses, and the status change happens once.
 */
export async function recordStampFailure(
  em: EntityManager,
  documentId: string,
  failure: { code: string; message: string },
): Promise<DocumentRow> {
  return em.transactional(async (tx) => {
    const row = await markStampFailed(tx, documentId, failure);
    if (!row) return loadDocumentById(tx, documentId);
    // A payment (or credit note) took its amount off the invoice's balance when it was created; one that never
    // existed gives it back. Before the refund, so locks go invoice row → balance row, the order creation takes them in.
    await restoreInvoiceBalance(tx, row);
    await reopenReceiptsOf(tx, row.id);
    if (row.reservation_id)
      await refundReservation(tx, scopeOf(row), row.reservation_id, `${row.id}: ${failure.code}`);
    await emitEvent(tx, scopeOf(row), `${eventPrefix(row)}.stamp_failed`, eventObject(row));
    return row;
  });
}

/** Flags an ambiguous PAC outcome; the reservation stays until reconciliation decides. Idempotent. */
export async function markNeedsReconciliation(
  em: EntityManager,
  documentId: string,
  detail: string,
): Promise<void> {
  await em.transactional(async (tx) => {
    const row = await flagNeedsReconciliation(tx, documentId, detail);
    if (row) await emitEvent(tx, scopeOf(row), `${eventPrefix(row)}.needs_reconciliation`, eventObject(row));
  });
}

export interface ReconciliationResolution {
  stamped: boolean;
  uuid?: string;
  resolvedBy: string;
  note?: string;
}

/**
 * Records who resolved a reconciliation, how and why (the audit trail the CLI shows). Recording the same decision
 * again (a replayed workflow step, a new run after a terminated one) keeps the one row.
 */
export async function recordReconciliation(
  em: EntityManager,
  documentId: string,
  resolution: ReconciliationResolution,
): Promise<void> {
  await insertReconciliation(em, {
    id: newId('rec'),
    documentId,
    resolution: resolution.stamped ? 'stamped' : 'not_stamped',
    uuid: resolution.uuid ?? null,
    resolvedBy: resolution.resolvedBy,
    note: resolution.note ?? null,
  });
}

/**
 * An operator resolved "stamped with UUID X". With the PAC's copy the document is complete; without it the UUID
 * is recorded alone (files cannot be generated) so the money and status are right and the XML can be attached later.
 */
export async function recordOperatorStamped(
  em: EntityManager,
  documentId: string,
  uuid: string,
  fromPac: StampedDocument | null,
  portalUrl: string,
): Promise<DocumentRow> {
  if (fromPac) return recordStamped(em, documentId, fromPac, { portalUrl });
  return em.transactional(async (tx) => {
    const row = await markStampedWithoutXml(tx, documentId, uuid.toUpperCase());
    if (!row) return loadDocumentById(tx, documentId);
    await emitEvent(tx, scopeOf(row), `${eventPrefix(row)}.stamped`, eventObject(row));
    await emitCoveredReceiptEvents(tx, row, portalUrl);
    return row;
  });
}
