import type { EntityManager } from '@cfdi/db';
import { refundReservation } from '../ledger';
import {
  emitEvent,
  eventPrefix,
  loadDocumentById,
  restoreInvoiceBalance,
  toDocumentView as eventObject,
  type DocumentRow,
} from '../documents';
import {
  markCancellationResolved,
  markCancellationSubmitted,
  restorePreviousCancellation,
} from '../documents/repository';
import { isoTimestamp } from '../time';
import type { AcuseRecord, CancellableRow } from './cancellation-record';

const scopeOf = (row: DocumentRow) => ({ accountId: row.account_id, livemode: row.livemode });

/**
 * The SAT accepted the request: `stamped` → `cancelled` (no acceptance needed) or `cancel_pending` (the receiver
 * must answer), with the acuse. Idempotent: only the first call finds the request pending on a stamped document.
 */
export async function recordCancellationSubmitted(
  em: EntityManager,
  documentId: string,
  submitted: { outcome: 'cancelled' | 'pending'; acuse: AcuseRecord },
  now: Date,
): Promise<DocumentRow> {
  const cancelled = submitted.outcome === 'cancelled';
  return em.transactional(async (tx) => {
    const row = await markCancellationSubmitted<CancellableRow>(
      tx,
      documentId,
      cancelled ? 'cancelled' : 'cancel_pending',
      JSON.stringify({
        acuse: submitted.acuse,
        ...(cancelled ? { status: 'accepted', resolvedAt: isoTimestamp(now) } : {}),
      }),
    );
    if (!row) return loadDocumentById(tx, documentId);
    if (cancelled) await restoreInvoiceBalance(tx, row);
    await emitEvent(
      tx,
      scopeOf(row),
      `${eventPrefix(row)}.${cancelled ? 'cancelled' : 'cancel_pending'}`,
      eventObject(row),
    );
    return row;
  });
}

/**
 * The receiver answered (or the window passed): `cancel_pending` → `cancelled`, or back to `stamped` with
 * `cancellation.status` rejected. The timbre stays spent either way: the SAT processed the request. Idempotent.
 */
export async function recordCancellationResolved(
  em: EntityManager,
  documentId: string,
  resolution: 'accepted' | 'rejected',
  now: Date,
): Promise<DocumentRow> {
  const accepted = resolution === 'accepted';
  return em.transactional(async (tx) => {
    const row = await markCancellationResolved<CancellableRow>(
      tx,
      documentId,
      accepted ? 'cancelled' : 'stamped',
      JSON.stringify({ status: resolution, resolvedAt: isoTimestamp(now) }),
    );
    if (!row) return loadDocumentById(tx, documentId);
    if (accepted) await restoreInvoiceBalance(tx, row);
    await emitEvent(
      tx,
      scopeOf(row),
      `${eventPrefix(row)}.${accepted ? 'cancelled' : 'cancellation_rejected'}`,
      eventObject(row),
    );
    return row;
  });
}

/**
 * The request never took effect (the SAT or the PAC refused it, or the PAC stayed unreachable): the document keeps
 * its previous `cancellation` and the timbre is refunded, once (the refund is keyed by the consume it reverses).
 */
export async function recordCancellationRefused(
  em: EntityManager,
  documentId: string,
  reason: string,
): Promise<DocumentRow> {
  return em.transactional(async (tx) => {
    const row = await restorePreviousCancellation<CancellableRow>(tx, documentId);
    if (!row) return loadDocumentById(tx, documentId);
    if (row.cancel_reservation_id)
      await refundReservation(
        tx,
        scopeOf(row),
        row.cancel_reservation_id,
        `${row.id}: cancellation ${reason}`,
      );
    return row;
  });
}
