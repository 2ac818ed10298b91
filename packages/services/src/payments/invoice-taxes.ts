import { computeInvoice, type InvoiceInput, type RelatedInvoice, type TaxGroup } from '@cfdi/cfdi';
import type { DocumentRow } from '../documents';

/**
 * The paid invoice as a payment complement relates it: UUID, Serie/Folio as printed in its XML, Total and its
 * document-level Traslados. The groups are recomputed from the stored engine input (the input the stamped XML was
 * built from); a total that no longer matches means the engine changed since, and is refused rather than guessed.
 */
export function relatedInvoiceOf(invoice: DocumentRow): RelatedInvoice {
  const computed = computeInvoice(invoice.input as unknown as InvoiceInput);
  if (Number(computed.total) !== Number(invoice.total)) {
    throw new Error(`invoice ${invoice.id}: recomputed total ${computed.total} differs from the stamped ${invoice.total}`);
  }
  const taxGroups: TaxGroup[] = computed.traslados.map((g) => ({
    impuesto: g.impuesto as TaxGroup['impuesto'],
    tipoFactor: g.tipoFactor,
    ...(g.tasaOCuota !== undefined ? { tasaOCuota: g.tasaOCuota } : {}),
    base: g.base,
    ...(g.importe !== undefined ? { importe: g.importe } : {}),
  }));
  return {
    uuid: invoice.uuid!,
    serie: invoice.serie,
    folio: invoice.folio_text ?? String(invoice.folio),
    total: invoice.total,
    taxGroups,
  };
}
