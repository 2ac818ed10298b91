import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from './document-row';
import { restoreInvoiceBalanceBy } from './repository';

/**
 * What a document took off a PPD invoice's `saldo_pendiente` when it was created, in the invoice's currency: a payment
 * its ImpPagado (ImpSaldoAnt − ImpSaldoInsoluto: its `monto` is in MonedaP, which may be another currency), a credit
 * note of an invoice of this service the part of its total the balance still had (its `monto`; docs/decisions.md).
 */
function balanceTaken(row: DocumentRow): { invoiceId: string; add: string; less: string } | null {
  if (row.type === 'payment') {
    if (!row.invoice_id || row.saldo_anterior === null || row.saldo_insoluto === null) return null;
    return { invoiceId: row.invoice_id, add: row.saldo_anterior, less: row.saldo_insoluto };
  }
  if (row.monto === null || row.monto === undefined) return null;
  return row.kind === 'credit_note' && row.related_invoice_id
    ? { invoiceId: row.related_invoice_id, add: row.monto, less: '0' }
    : null;
}

/**
 * A payment or credit note that never existed (stamp failed) or no longer counts (cancelled) gives back what it took
 * off the invoice's outstanding balance. Called in the transaction that records that outcome, once.
 */
export async function restoreInvoiceBalance(tx: EntityManager, row: DocumentRow): Promise<void> {
  const taken = balanceTaken(row);
  if (!taken) return;
  await restoreInvoiceBalanceBy(tx, taken.invoiceId, taken.add, taken.less);
}
