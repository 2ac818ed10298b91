import {
  buildCreditNoteXml, buildInvoiceXml, buildNominaXml, buildPaymentXml, rootAttributes, sealXml, type Csd, type CreditNoteInput, type InvoiceInput, type NominaInput,
  type PaymentInput,
} from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from './document-row';

/** A business reason the document can never be sealed (no CSD, expired CSD, deleted merchant): not retryable. */
export class UnsealableDocumentError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'UnsealableDocumentError';
  }
}

export type CsdLoader = (row: DocumentRow) => Promise<Csd>;

function buildXml(row: DocumentRow, now: Date): string {
  if (row.type === 'payment') return buildPaymentXml(row.input as unknown as PaymentInput, { now }).xml;
  if (row.type === 'nomina') return buildNominaXml(row.input as unknown as NominaInput, { now }).xml;
  if (row.kind === 'credit_note') return buildCreditNoteXml(row.input as unknown as CreditNoteInput, { now }).xml;
  return buildInvoiceXml(row.input as unknown as InvoiceInput, { now }).xml;
}

/**
 * Builds and seals the document once and persists the sealed XML before any PAC call. Idempotent: when a sealed
 * XML exists it is returned unchanged (re-sealing would make a different CFDI and defeat the PAC's duplicate check).
 */
export async function sealDocument(em: EntityManager, row: DocumentRow, loadCsd: CsdLoader, now: Date): Promise<string> {
  if (row.sealed_xml) return row.sealed_xml;
  const sealed = sealXml(buildXml(row, now), await loadCsd(row));
  const root = rootAttributes(sealed.xml);
  // An invoice's amounts become the XML's: the API computed them when it accepted the request, and a worker of a
  // newer engine may build the XML (a deploy between the two). Nothing is paid against an unstamped invoice yet.
  const amounts = row.type === 'payment'
    ? { subtotal: row.subtotal, discount: row.discount, total: row.total }
    : { subtotal: root.SubTotal ?? row.subtotal, discount: root.Descuento ?? '0', total: root.Total ?? row.total };
  const stored: { sealed_xml: string }[] = await em.execute(
    `update documents set sealed_xml = ?, fecha = ?, subtotal = ?, discount = ?, total = ?,
            saldo_pendiente = case when saldo_pendiente is null then null else ?::numeric end, updated_at = now()
      where id = ? and sealed_xml is null returning sealed_xml`,
    [sealed.xml, root.Fecha ?? null, amounts.subtotal, amounts.discount, amounts.total, amounts.total, row.id],
  );
  if (stored[0]) return stored[0].sealed_xml;
  // Another attempt sealed it first: its bytes are the ones the PAC may already have.
  const existing: { sealed_xml: string }[] = await em.execute('select sealed_xml from documents where id = ?', [row.id]);
  return existing[0]!.sealed_xml;
}

