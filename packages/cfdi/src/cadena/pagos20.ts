import type { Element } from '@xmldom/xmldom';
import { children, NS, path } from '../xml/dom';
import type { CadenaWriter } from './writer';

const P = NS.pago20;

/** Mirrors Pagos20.xslt (cfdi40.md §5.5, "Pagos cadena order"). */
export function writePagos20(w: CadenaWriter, el: Element): void {
  w.req(el, 'Version');
  for (const t of children(el, P, 'Totales')) {
    w.fields(t, [
      'TotalRetencionesIVA?', 'TotalRetencionesISR?', 'TotalRetencionesIEPS?', 'TotalTrasladosBaseIVA16?',
      'TotalTrasladosImpuestoIVA16?', 'TotalTrasladosBaseIVA8?', 'TotalTrasladosImpuestoIVA8?', 'TotalTrasladosBaseIVA0?',
      'TotalTrasladosImpuestoIVA0?', 'TotalTrasladosBaseIVAExento?', 'MontoTotalPagos',
    ]);
  }
  for (const pago of children(el, P, 'Pago')) {
    w.fields(pago, [
      'FechaPago', 'FormaDePagoP', 'MonedaP', 'TipoCambioP?', 'Monto', 'NumOperacion?', 'RfcEmisorCtaOrd?',
      'NomBancoOrdExt?', 'CtaOrdenante?', 'RfcEmisorCtaBen?', 'CtaBeneficiario?', 'TipoCadPago?', 'CertPago?',
      'CadPago?', 'SelloPago?',
    ]);
    for (const doc of children(pago, P, 'DoctoRelacionado')) {
      w.fields(doc, [
        'IdDocumento', 'Serie?', 'Folio?', 'MonedaDR', 'EquivalenciaDR?', 'NumParcialidad', 'ImpSaldoAnt', 'ImpPagado',
        'ImpSaldoInsoluto', 'ObjetoImpDR',
      ]);
      for (const r of path(doc, P, 'ImpuestosDR', 'RetencionesDR', 'RetencionDR')) {
        w.fields(r, ['BaseDR', 'ImpuestoDR', 'TipoFactorDR', 'TasaOCuotaDR', 'ImporteDR']);
      }
      for (const t of path(doc, P, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR')) {
        w.fields(t, ['BaseDR', 'ImpuestoDR', 'TipoFactorDR', 'TasaOCuotaDR?', 'ImporteDR?']);
      }
    }
    for (const imp of children(pago, P, 'ImpuestosP')) {
      for (const r of path(imp, P, 'RetencionesP', 'RetencionP')) w.fields(r, ['ImpuestoP', 'ImporteP']);
      for (const t of path(imp, P, 'TrasladosP', 'TrasladoP')) w.fields(t, ['BaseP', 'ImpuestoP', 'TipoFactorP', 'TasaOCuotaP?', 'ImporteP?']);
    }
  }
}
