/** An invoice's payments and credit notes, and the balance they move. */
import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from './rows';

/** A payment counts towards the invoice from creation until it is cancelled or fails to stamp. */
export const LIVE_PAYMENT_STATUSES = ['stamping', 'stamped', 'cancel_pending'] as const;

/** The invoice's live payments, in NumParcialidad order. */
export function selectLivePayments(em: EntityManager, invoiceId: string): Promise<DocumentRow[]> {
  return em.execute(
    `select * from documents where invoice_id = ? and type = 'payment' and status in (${LIVE_PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})
      order by num_parcialidad`,
    [invoiceId],
  );
}

/** The credit notes in the given statuses that relate this invoice, by its id or by its UUID. */
export function selectCreditNotesOf(
  em: EntityManager,
  invoice: Pick<DocumentRow, 'account_id' | 'livemode' | 'id' | 'uuid'>,
  statuses: readonly string[],
): Promise<Pick<DocumentRow, 'id' | 'total'>[]> {
  return em.execute(
    `select id, total from documents
      where account_id = ? and livemode = ? and kind = 'credit_note' and status = any(?) and (related_invoice_id = ? or related_uuid = ?)
      order by id`,
    [invoice.account_id, invoice.livemode, statuses, invoice.id, invoice.uuid],
  );
}

/** The credit notes of the invoice (by its id) stamping, stamped or being cancelled, with their cancellation. */
export function selectUnsettledOrLiveCreditNotes(
  tx: EntityManager,
  invoiceId: string,
): Promise<
  Array<Pick<DocumentRow, 'id' | 'status' | 'monto'> & { cancellation: { status?: string } | null }>
> {
  return tx.execute(
    `select id, status, monto, cancellation from documents
      where related_invoice_id = ? and kind = 'credit_note' and status in ('stamping', 'stamped', 'cancel_pending')`,
    [invoiceId],
  );
}

/** Takes `amount` off the invoice's outstanding balance (a payment or credit note created against it). */
export async function reduceInvoiceBalance(
  tx: EntityManager,
  invoiceId: string,
  amount: string,
): Promise<void> {
  await tx.execute(
    'update documents set saldo_pendiente = saldo_pendiente - ?, updated_at = now() where id = ?',
    [amount, invoiceId],
  );
}

/** Gives back to the invoice's balance what a document took (`add` − `less`, in the invoice's currency). */
export async function restoreInvoiceBalanceBy(
  tx: EntityManager,
  invoiceId: string,
  add: string,
  less: string,
): Promise<void> {
  await tx.execute(
    'update documents set saldo_pendiente = saldo_pendiente + (?::numeric - ?::numeric), updated_at = now() where id = ?',
    [add, less, invoiceId],
  );
}
