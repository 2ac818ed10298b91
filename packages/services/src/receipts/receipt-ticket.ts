import type { TicketView } from '@cfdi/cfdi';
import { findMerchant } from '../merchants';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';
import { printedReceiptKey } from './receipt-key';
import { findReceipt, selfInvoiceUrl, type ReceiptContext } from './receipts';

const when = new Intl.DateTimeFormat('es-MX', {
  timeZone: MEXICO_CITY,
  dateStyle: 'short',
  timeStyle: 'short',
});
const day = new Intl.DateTimeFormat('es-MX', { timeZone: MEXICO_CITY, dateStyle: 'long' });
// A line's amount as printed: quantity × price to the cent (the totals are the tax engine's own).
const cents = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** What a receipt's ticket prints (plain text or 80 mm PDF), for the caller's receipt (404 otherwise). */
export async function receiptTicket(ctx: ReceiptContext, scope: Scope, id: string): Promise<TicketView> {
  const receipt = await findReceipt(ctx.em, scope, id);
  const merchant = await findMerchant(ctx.em, scope, receipt.merchant_id, { includeDeleted: true });
  return {
    merchantName: merchant.legal_name,
    merchantRfc: merchant.rfc,
    branch: receipt.branch,
    soldAt: when.format(new Date(receipt.created_at)),
    lines: receipt.items.map((item) => ({
      description: item.description,
      quantity: String(item.quantity),
      amount: cents(Number(item.quantity) * Number(item.unitPrice)),
    })),
    total: receipt.total,
    formaPago: receipt.forma_pago,
    key: printedReceiptKey(receipt.key),
    selfInvoiceUrl: selfInvoiceUrl(ctx.portalUrl, receipt.key),
    // expires_at is the last millisecond of a day in Mexico City: that day.
    expiresOn: day.format(new Date(receipt.expires_at)),
  };
}
