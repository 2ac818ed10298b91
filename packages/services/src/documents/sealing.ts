import { buildCreditNoteXml, buildInvoiceXml, buildPaymentXml, sealXml, type Csd, type CreditNoteInput, type InvoiceInput, type PaymentInput } from '@cfdi/cfdi';
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
  const fecha = /Fecha="([^"]+)"/.exec(sealed.xml)?.[1] ?? null;
  const stored: { sealed_xml: string }[] = await em.execute(
    `update documents set sealed_xml = coalesce(sealed_xml, ?), fecha = coalesce(fecha, ?), updated_at = now()
      where id = ? returning sealed_xml`,
    [sealed.xml, fecha, row.id],
  );
  return stored[0]!.sealed_xml;
}
