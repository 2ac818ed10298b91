import type { CreditNoteInput, InvoiceInput } from '@cfdi/cfdi';
import type { DocumentRow } from '../documents/document-row';
import { kindOf } from '../documents/kinds';
import { createDraft } from './create-draft';
import { loadInvoiceFor, type DraftOperation } from './draft-row';

/**
 * The create body a document was made from, rebuilt from what it stored (every invoice and credit note, whenever it
 * was created, has its engine input), for a copy. A copy is a new document: no display folio, and an invoice's
 * `relatedDocuments` are dropped (a second CFDI substituting the same UUID, or applying the same advance, would be
 * wrong; relate the copy anew with PATCH). A credit note keeps its related invoice: it has no meaning without one,
 * and the copy's stamp checks that invoice again (stamped, no cancellation, credit left).
 */
export function copyBody(row: DocumentRow): Record<string, unknown> {
  if (row.kind === 'credit_note') {
    const input = row.input as unknown as CreditNoteInput;
    return {
      merchantId: row.merchant_id,
      ...(row.related_invoice_id
        ? { relatedInvoiceId: row.related_invoice_id }
        : { relatedUuid: input.relatedUuid, receiver: input.receiver }),
      tipoRelacion: input.tipoRelacion,
      usoCfdi: input.usoCfdi,
      formaPago: input.formaPago,
      items: input.items,
      pricesIncludeTax: input.pricesIncludeTax,
    };
  }
  const input = row.input as unknown as InvoiceInput;
  return {
    merchantId: row.merchant_id,
    metodoPago: input.metodoPago,
    formaPago: input.formaPago,
    usoCfdi: input.usoCfdi,
    receiver: input.receiver,
    items: input.items,
    ...(input.shipping ? { shipping: input.shipping } : {}),
    pricesIncludeTax: input.pricesIncludeTax,
    ...(input.cartDiscount !== undefined ? { cartDiscount: input.cartDiscount } : {}),
    ...(input.informacionGlobal ? { informacionGlobal: input.informacionGlobal } : {}),
  };
}

/** A new draft with the body of any invoice or credit note of the scope (stamped, cancelled, failed or a draft). */
export const copyToDraft: DraftOperation = async (em, deps, scope, id, idempotencyKey) => {
  const source = await loadInvoiceFor(em, scope, id);
  return createDraft(em, deps, scope, kindOf(source), copyBody(source), idempotencyKey);
};
