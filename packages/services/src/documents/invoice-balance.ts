import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from './document-row';

/**
 * What a document took off a PPD invoice's `saldo_pendiente` when it was created: a payment its `monto`, a credit note
 * of an invoice of this service the part of its total the balance still had (`monto` too; docs/decisions.md).
 */
function balanceTaken(row: DocumentRow): { invoiceId: string; amount: string } | null {
  if (row.monto === null || row.monto === undefined) return null;
  const invoiceId =
    row.type === 'payment' ? row.invoice_id : row.kind === 'credit_note' ? row.related_invoice_id : null;
  return invoiceId ? { invoiceId, amount: row.monto } : null;
}

/**
 * A payment or credit note that never existed (stamp failed) or no longer counts (cancelled) gives back what it took
 * off the invoice's outstanding balance. Called in the transaction that records that outcome, once.
 */
export async function restoreInvoiceBalance(tx: EntityManager, row: DocumentRow): Promise<void> {
  const taken = balanceTaken(row);
  if (!taken) return;
  await tx.execute(
    'update documents set saldo_pendiente = saldo_pendiente + ?, updated_at = now() where id = ?',
    [taken.amount, taken.invoiceId],
  );
}
