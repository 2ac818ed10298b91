import type { EntityManager } from '@cfdi/db';
import type { InvoiceItem, Receiver } from '@cfdi/cfdi';
import { NotFoundError, ValidationError } from '../errors';
import type { DocumentRow } from '../documents/document-row';
import { prepareInvoice, type InvoiceCreate } from '../documents/create-invoice';
import { storePrepared } from '../documents/prepared-document';
import type { StampingDeps } from '../documents/stamping-deps';
import type { Scope } from '../scope';
import { findReceipt, notOpen, type ReceiptRow } from './receipts';
import { markReceiptsInvoiced } from './receipt-repository';

/** Who the invoice of some receipts is for: a receiver in full or a saved customer, and the CFDI use. */
export interface ReceiptCustomer {
  receiver?: Receiver;
  customerId?: string;
  usoCfdi?: string;
}

/** POST /v1/invoices/from_receipts after schema validation. */
export interface InvoiceFromReceipts extends ReceiptCustomer {
  receiptIds: string[];
}

/**
 * The receipts an invoice will cover, all open and of one merchant, each problem on its path: an id the caller cannot
 * see is a 400 on `/receiptIds/i` when several are named (`single` answers 404, as for the receipt's own URL).
 */
async function openReceipts(
  em: EntityManager,
  scope: Scope,
  ids: string[],
  single: boolean,
): Promise<ReceiptRow[]> {
  const rows: ReceiptRow[] = [];
  for (const [i, id] of ids.entries()) {
    try {
      rows.push(await findReceipt(em, scope, id));
    } catch (error) {
      if (single || !(error instanceof NotFoundError)) throw error;
      throw ValidationError.field(`/receiptIds/${i}`, `No receipt with id ${id}.`);
    }
  }
  const merchantId = rows[0]!.merchant_id;
  rows.forEach((row, i) => {
    if (ids.indexOf(row.id) !== i) throw ValidationError.field(`/receiptIds/${i}`, 'is named twice');
    if (row.merchant_id !== merchantId)
      throw ValidationError.field(
        `/receiptIds/${i}`,
        'belongs to another merchant: one invoice has one issuer',
      );
    if (row.prices_include_tax !== rows[0]!.prices_include_tax)
      throw ValidationError.field(
        `/receiptIds/${i}`,
        'states its prices with and the others without taxes (pricesIncludeTax): invoice them apart',
      );
  });
  const closed = rows.find((row) => row.status !== 'open');
  if (closed) throw notOpen(closed);
  return rows;
}

/**
 * The payment form of an invoice of several sales: the SAT's guide asks for the form that paid the largest amount
 * when there are several (Anexo 20 guide, FormaPago).
 */
export function formaPagoOf(rows: ReceiptRow[]): string {
  const paid = new Map<string, number>();
  for (const row of rows) paid.set(row.forma_pago, (paid.get(row.forma_pago) ?? 0) + Number(row.total));
  return [...paid.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * Invoices open receipts of one merchant for a customer: the invoice kind's own path (validation, the tax engine over
 * the receipts' items, folio, timbre reservation), and in the transaction that stores the invoice the receipts become
 * `invoiced` by a conditional update: if another request, the customer's portal or the global run took one first, the
 * update misses it, the transaction rolls back and the answer is 409 receipt_not_open (nothing stored, nothing
 * charged). The caller then stamps the document as any created invoice.
 */
export async function createInvoiceFromReceipts(
  em: EntityManager,
  deps: StampingDeps & { portalUrl: string },
  scope: Scope,
  request: InvoiceFromReceipts,
  options: { idempotencyKey?: string; single?: boolean } = {},
): Promise<DocumentRow> {
  const rows = await openReceipts(em, scope, request.receiptIds, options.single ?? false);
  const body: InvoiceCreate = {
    merchantId: rows[0]!.merchant_id,
    formaPago: formaPagoOf(rows),
    metodoPago: 'PUE',
    ...(request.receiver ? { receiver: request.receiver } : {}),
    ...(request.customerId ? { customerId: request.customerId } : {}),
    ...(request.usoCfdi ? { usoCfdi: request.usoCfdi } : {}),
    pricesIncludeTax: rows[0]!.prices_include_tax,
    items: rows.flatMap((row) => row.items as InvoiceItem[]),
  };
  const prepared = await prepareInvoice(em, deps, scope, body);
  return em.transactional(async (tx) => {
    const document = await storePrepared(tx, deps.config, scope, prepared, {
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    });
    const marked = await markReceiptsInvoiced(tx, scope, document.id, request.receiptIds);
    if (marked.length !== rows.length) {
      const taken = rows.find((row) => !marked.some((m) => m.id === row.id))!;
      throw notOpen(await findReceipt(em, scope, taken.id));
    }
    // receipt.invoiced is emitted when the invoice is stamped (see emitCoveredReceiptEvents), not now: it may fail.
    return document;
  });
}
