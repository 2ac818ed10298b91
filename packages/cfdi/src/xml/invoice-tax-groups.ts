import type { TaxGroup } from '../types';
import { attr, NS, parseXml, path, rootElement } from './dom';

/**
 * The document-level Traslados of a CFDI (Comprobante/Impuestos/Traslados, not the concepts'), as written: what a
 * payment complement attributes to each installment. Read from the XML rather than recomputed, so an invoice keeps
 * the groups it was stamped with whatever the engine computes today.
 */
export function invoiceTaxGroups(xml: string): TaxGroup[] {
  const root = rootElement(parseXml(xml));
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante')
    throw new Error('not a CFDI 4.0 Comprobante');
  return path(root, NS.cfdi, 'Impuestos', 'Traslados', 'Traslado').map((traslado) => {
    const impuesto = attr(traslado, 'Impuesto');
    const tipoFactor = attr(traslado, 'TipoFactor');
    const base = attr(traslado, 'Base');
    if (
      (impuesto !== '002' && impuesto !== '003') ||
      (tipoFactor !== 'Tasa' && tipoFactor !== 'Exento') ||
      base === undefined
    ) {
      throw new Error(`unsupported document-level Traslado (Impuesto ${impuesto}, TipoFactor ${tipoFactor})`);
    }
    const tasaOCuota = attr(traslado, 'TasaOCuota');
    const importe = attr(traslado, 'Importe');
    return {
      impuesto,
      tipoFactor,
      base,
      ...(tasaOCuota !== undefined ? { tasaOCuota } : {}),
      ...(importe !== undefined ? { importe } : {}),
    };
  });
}

/**
 * The TrasladoDR of one paid invoice (its DoctoRelacionado, by IdDocumento) in a stamped payment complement, as
 * written: what earlier installments carried, so the next one can carry the rest (cfdi40.md §5.5).
 */
export function installmentTaxGroups(xml: string, invoiceUuid: string): TaxGroup[] {
  const root = rootElement(parseXml(xml));
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante')
    throw new Error('not a CFDI 4.0 Comprobante');
  const docs = path(root, NS.cfdi, 'Complemento').flatMap((c) =>
    path(c, NS.pago20, 'Pagos', 'Pago', 'DoctoRelacionado'),
  );
  const related = docs.filter((d) => attr(d, 'IdDocumento')?.toUpperCase() === invoiceUuid.toUpperCase());
  return related
    .flatMap((d) => path(d, NS.pago20, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR'))
    .map((traslado) => {
      const impuesto = attr(traslado, 'ImpuestoDR');
      const tipoFactor = attr(traslado, 'TipoFactorDR');
      const base = attr(traslado, 'BaseDR');
      if (
        (impuesto !== '002' && impuesto !== '003') ||
        (tipoFactor !== 'Tasa' && tipoFactor !== 'Exento') ||
        base === undefined
      ) {
        throw new Error(`unsupported TrasladoDR (ImpuestoDR ${impuesto}, TipoFactorDR ${tipoFactor})`);
      }
      const tasaOCuota = attr(traslado, 'TasaOCuotaDR');
      const importe = attr(traslado, 'ImporteDR');
      return {
        impuesto,
        tipoFactor,
        base,
        ...(tasaOCuota !== undefined ? { tasaOCuota } : {}),
        ...(importe !== undefined ? { importe } : {}),
      };
    });
}
