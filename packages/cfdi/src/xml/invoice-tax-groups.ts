import type { Element } from '@xmldom/xmldom';
import type { TaxGroup } from '../types';
import { attr, NS, parseXml, path, rootElement } from './dom';

/**
 * The document-level Traslados of a CFDI (Comprobante/Impuestos/Traslados, not the concepts'), as written: what a
 * payment complement attributes to each installment. Read from the XML rather than recomputed, so an invoice keeps
 * the groups it was stamped with whatever the engine computes today.
 */
export function invoiceTaxGroups(xml: string): TaxGroup[] {
  const root = comprobante(xml);
  return path(root, NS.cfdi, 'Impuestos', 'Traslados', 'Traslado').map((traslado) =>
    readTaxGroup(traslado, '', 'document-level Traslado'),
  );
}

/**
 * The TrasladoDR of one paid invoice (its DoctoRelacionado, by IdDocumento) in a stamped payment complement, as
 * written: what earlier installments carried, so the next one can carry the rest (cfdi40.md §5.5).
 */
export function installmentTaxGroups(xml: string, invoiceUuid: string): TaxGroup[] {
  const root = comprobante(xml);
  const docs = path(root, NS.cfdi, 'Complemento').flatMap((c) =>
    path(c, NS.pago20, 'Pagos', 'Pago', 'DoctoRelacionado'),
  );
  const related = docs.filter((d) => attr(d, 'IdDocumento')?.toUpperCase() === invoiceUuid.toUpperCase());
  return related
    .flatMap((d) => path(d, NS.pago20, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR'))
    .map((traslado) => readTaxGroup(traslado, 'DR', 'TrasladoDR'));
}

/**
 * A Traslado's group as written, from its attributes (`Impuesto`, or `ImpuestoDR` in a payment's TrasladoDR: the
 * same attributes with a suffix). Only IVA and IEPS at a rate or exempt: what the engine itself writes.
 */
function readTaxGroup(traslado: Element, suffix: '' | 'DR', what: string): TaxGroup {
  const impuesto = attr(traslado, `Impuesto${suffix}`);
  const tipoFactor = attr(traslado, `TipoFactor${suffix}`);
  const base = attr(traslado, `Base${suffix}`);
  if (
    (impuesto !== '002' && impuesto !== '003') ||
    (tipoFactor !== 'Tasa' && tipoFactor !== 'Exento') ||
    base === undefined
  ) {
    throw new Error(`unsupported ${what} (Impuesto${suffix} ${impuesto}, TipoFactor${suffix} ${tipoFactor})`);
  }
  const tasaOCuota = attr(traslado, `TasaOCuota${suffix}`);
  const importe = attr(traslado, `Importe${suffix}`);
  return {
    impuesto,
    tipoFactor,
    base,
    ...(tasaOCuota !== undefined ? { tasaOCuota } : {}),
    ...(importe !== undefined ? { importe } : {}),
  };
}

function comprobante(xml: string): Element {
  const root = rootElement(parseXml(xml));
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante')
    throw new Error('not a CFDI 4.0 Comprobante');
  return root;
}
