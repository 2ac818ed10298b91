import type { DocumentRecord, DocumentRow, DocumentType } from './document-row';
import {
  cartaPorteOf,
  foreignTradeOf,
  relatedDocumentsOf,
  toInvoiceView,
  type DocumentUrlSigner,
} from './invoice-view';
import { toNominaView } from './nomina-view';
import { toPaymentView } from './payment-view';
import { toRetentionView } from './retention-view';
import { toTrasladoView, trasladoRecordInput } from './traslado-view';

/** The resource a document is shown as, by its type: one answer shape per type everywhere (API, events, MCP). */
export function toDocumentView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  if (row.type === 'payment') return toPaymentView(row, sign);
  if (row.type === 'nomina') return toNominaView(row, sign);
  if (row.type === 'retention') return toRetentionView(row, sign);
  if (row.type === 'traslado') return toTrasladoView(row, sign);
  return toInvoiceView(row, sign);
}

/**
 * What a document is worth as people read it: its CFDI total, except a payment complement's, whose CFDI total is 0 by
 * the Pagos 2.0 rules; it is worth the amount paid (`monto`).
 */
export const documentAmount = (row: Pick<DocumentRow, 'type' | 'total' | 'monto'>): string =>
  row.type === 'payment' && row.monto !== null ? row.monto : row.total;

/** Events are named after the resource: `invoice.*`, `payment.*`, `nomina.*`, `retention.*`, `traslado.*`. */
export const eventPrefix = (row: Pick<DocumentRow, 'type'>): DocumentType => row.type;

/** What the payment view reads of a payment's input (its currencies), without the related invoice's tax groups. */
function paymentCurrenciesOf(input: Record<string, unknown> | null): Record<string, unknown> {
  const i = (input ?? {}) as {
    tipoCambioP?: string;
    equivalenciaDR?: string;
    impPagado?: string;
    invoice?: { moneda?: string };
  };
  return {
    ...(i.tipoCambioP !== undefined ? { tipoCambioP: i.tipoCambioP } : {}),
    ...(i.equivalenciaDR !== undefined ? { equivalenciaDR: i.equivalenciaDR } : {}),
    ...(i.impPagado !== undefined ? { impPagado: i.impPagado } : {}),
    ...(i.invoice?.moneda !== undefined ? { invoice: { moneda: i.invoice.moneda } } : {}),
  };
}

/**
 * The record a document's views are built from, kept small enough to cross Temporal whatever the number of items:
 * no XML, and of the stored request only what views show (a payroll receipt's whole request, an invoice's
 * relatedDocuments; a payment's currencies).
 */
export function toDocumentRecord(row: DocumentRow): DocumentRecord {
  const { sealed_xml: _sealed, stamped_xml: _stamped, input, ...record } = row;
  // A payroll receipt's and a certificate's views read their whole request (small: no concepts).
  if (row.type === 'nomina' || row.type === 'retention') return { ...record, input };
  if (row.type === 'payment') return { ...record, input: paymentCurrenciesOf(row.input) };
  if (row.type === 'traslado') return { ...record, input: trasladoRecordInput(row.input) };
  const relatedDocuments = relatedDocumentsOf(row);
  // What the invoice view reads of the input, without the concepts and goods (the record crosses Temporal).
  const { tipoCambio, comercioExterior: exportSummary } = foreignTradeOf(row.input);
  const cartaPorteSummary = cartaPorteOf(row.input);
  return {
    ...record,
    input: {
      ...(relatedDocuments ? { relatedDocuments } : {}),
      ...(cartaPorteSummary ? { cartaPorteSummary } : {}),
      ...(tipoCambio !== undefined ? { tipoCambio: String(tipoCambio) } : {}),
      ...(exportSummary ? { exportSummary } : {}),
    },
  };
}
