import type { TaxGroup } from '../types';
import { attr, NS, parseXml, path, rootElement } from './dom';

/**
 * The document-level Traslados of a CFDI (Comprobante/Impuestos/Traslados, not the concepts'), as written: what a
 * payment complement attributes to each installment. Read from the XML rather than recomputed, so an invoice keeps
 * the groups it was stamped with whatever the engine computes today.
 */
export function invoiceTaxGroups(xml: string): TaxGroup[] {
  const root = rootElement(parseXml(xml));
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante') throw new Error('not a CFDI 4.0 Comprobante');
  return path(root, NS.cfdi, 'Impuestos', 'Traslados', 'Traslado').map((traslado) => {
    const impuesto = attr(traslado, 'Impuesto');
    const tipoFactor = attr(traslado, 'TipoFactor');
    const base = attr(traslado, 'Base');
    if ((impuesto !== '002' && impuesto !== '003') || (tipoFactor !== 'Tasa' && tipoFactor !== 'Exento') || base === undefined) {
      throw new Error(`unsupported document-level Traslado (Impuesto ${impuesto}, TipoFactor ${tipoFactor})`);
    }
    const tasaOCuota = attr(traslado, 'TasaOCuota');
    const importe = attr(traslado, 'Importe');
    return { impuesto, tipoFactor, base, ...(tasaOCuota !== undefined ? { tasaOCuota } : {}), ...(importe !== undefined ? { importe } : {}) };
  });
}
