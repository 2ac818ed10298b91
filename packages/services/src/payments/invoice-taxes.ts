import { invoiceTaxGroups, type RelatedInvoice } from '@cfdi/cfdi';
import type { DocumentRow } from '../documents/document-row';

/**
 * The paid invoice as a payment complement relates it: UUID, Serie/Folio as printed in its XML, Total and its
 * document-level Traslados as written in the XML it was stamped with (its sealed XML when an operator confirmed the
 * stamp without the PAC's copy: the same Comprobante without the TFD). Read, not recomputed, so the installments
 * stay true to the stamped invoice whatever the engine computes today.
 */
export function relatedInvoiceOf(invoice: DocumentRow): RelatedInvoice {
  const xml = invoice.stamped_xml ?? invoice.sealed_xml;
  if (!xml) throw new Error(`invoice ${invoice.id} has no XML to relate the payment to`);
  return {
    uuid: invoice.uuid!,
    serie: invoice.serie,
    folio: invoice.folio_text ?? String(invoice.folio),
    total: invoice.total,
    taxGroups: invoiceTaxGroups(xml),
  };
}
