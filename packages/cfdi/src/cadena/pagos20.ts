import { NS } from '../xml/dom';
import { kids, walk, type XmlNode } from './tree';
import type { CadenaWriter } from './writer';

const P = NS.pago20;

/** Mirrors Pagos20.xslt (cfdi40.md §5.5, "Pagos cadena order"). */
export function writePagos20(w: CadenaWriter, el: XmlNode): void {
  w.req(el, 'Version');
  for (const t of kids(el, P, 'Totales')) {
    w.fields(t, [
      'TotalRetencionesIVA?',
      'TotalRetencionesISR?',
      'TotalRetencionesIEPS?',
      'TotalTrasladosBaseIVA16?',
      'TotalTrasladosImpuestoIVA16?',
      'TotalTrasladosBaseIVA8?',
      'TotalTrasladosImpuestoIVA8?',
      'TotalTrasladosBaseIVA0?',
      'TotalTrasladosImpuestoIVA0?',
      'TotalTrasladosBaseIVAExento?',
      'MontoTotalPagos',
    ]);
  }
  for (const pago of kids(el, P, 'Pago')) {
    w.fields(pago, [
      'FechaPago',
      'FormaDePagoP',
      'MonedaP',
      'TipoCambioP?',
      'Monto',
      'NumOperacion?',
      'RfcEmisorCtaOrd?',
      'NomBancoOrdExt?',
      'CtaOrdenante?',
      'RfcEmisorCtaBen?',
      'CtaBeneficiario?',
      'TipoCadPago?',
      'CertPago?',
      'CadPago?',
      'SelloPago?',
    ]);
    for (const doc of kids(pago, P, 'DoctoRelacionado')) {
      w.fields(doc, [
        'IdDocumento',
        'Serie?',
        'Folio?',
        'MonedaDR',
        'EquivalenciaDR?',
        'NumParcialidad',
        'ImpSaldoAnt',
        'ImpPagado',
        'ImpSaldoInsoluto',
        'ObjetoImpDR',
      ]);
      for (const r of walk(doc, P, 'ImpuestosDR', 'RetencionesDR', 'RetencionDR')) {
        w.fields(r, ['BaseDR', 'ImpuestoDR', 'TipoFactorDR', 'TasaOCuotaDR', 'ImporteDR']);
      }
      for (const t of walk(doc, P, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR')) {
        w.fields(t, ['BaseDR', 'ImpuestoDR', 'TipoFactorDR', 'TasaOCuotaDR?', 'ImporteDR?']);
      }
    }
    for (const imp of kids(pago, P, 'ImpuestosP')) {
      for (const r of walk(imp, P, 'RetencionesP', 'RetencionP')) w.fields(r, ['ImpuestoP', 'ImporteP']);
      for (const t of walk(imp, P, 'TrasladosP', 'TrasladoP'))
        w.fields(t, ['BaseP', 'ImpuestoP', 'TipoFactorP', 'TasaOCuotaP?', 'ImporteP?']);
    }
  }
}
