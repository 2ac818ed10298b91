import type { DocumentRow, DocumentType } from './document-row';
import { toInvoiceView, type DocumentUrlSigner } from './invoice-view';
import { toNominaView } from './nomina-view';
import { toPaymentView } from './payment-view';

/** The resource a document is shown as, by its type: one answer shape per type everywhere (API, events, MCP). */
export function toDocumentView(row: DocumentRow, sign?: DocumentUrlSigner) {
  if (row.type === 'payment') return toPaymentView(row, sign);
  if (row.type === 'nomina') return toNominaView(row, sign);
  return toInvoiceView(row, sign);
}

/** Events are named after the resource: `invoice.*`, `payment.*`, `nomina.*`. */
export const eventPrefix = (row: Pick<DocumentRow, 'type'>): DocumentType => row.type;
