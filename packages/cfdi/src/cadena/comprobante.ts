import type { Element } from '@xmldom/xmldom';
import { child, children, descendants, elementChildren, NS, path } from '../xml/dom';
import { writeNomina12 } from './nomina12';
import { writePagos20 } from './pagos20';
import type { CadenaWriter } from './writer';

const C = NS.cfdi;

/** Mirrors cadenaoriginal_4_0.xslt template by template (field order of cfdi40.md §3.2). */
export function writeComprobante(w: CadenaWriter, el: Element): void {
  w.fields(el, [
    'Version', 'Serie?', 'Folio?', 'Fecha', 'FormaPago?', 'NoCertificado', 'CondicionesDePago?', 'SubTotal',
    'Descuento?', 'Moneda', 'TipoCambio?', 'Total', 'TipoDeComprobante', 'Exportacion', 'MetodoPago?',
    'LugarExpedicion', 'Confirmacion?',
  ]);
  for (const ig of children(el, C, 'InformacionGlobal')) w.fields(ig, ['Periodicidad', 'Meses', 'Año']);
  for (const rel of children(el, C, 'CfdiRelacionados')) {
    w.req(rel, 'TipoRelacion');
    for (const r of children(rel, C, 'CfdiRelacionado')) w.req(r, 'UUID');
  }
  for (const e of children(el, C, 'Emisor')) w.fields(e, ['Rfc', 'Nombre', 'RegimenFiscal', 'FacAtrAdquirente?']);
  for (const r of children(el, C, 'Receptor')) {
    w.fields(r, ['Rfc', 'Nombre', 'DomicilioFiscalReceptor', 'ResidenciaFiscal?', 'NumRegIdTrib?', 'RegimenFiscalReceptor', 'UsoCFDI']);
  }
  for (const conceptos of children(el, C, 'Conceptos')) {
    for (const concepto of children(conceptos, C, 'Concepto')) writeConcepto(w, concepto);
  }
  for (const imp of children(el, C, 'Impuestos')) writeImpuestos(w, imp);
  for (const comp of children(el, C, 'Complemento')) writeComplemento(w, comp);
}

function writeConcepto(w: CadenaWriter, el: Element): void {
  w.fields(el, [
    'ClaveProdServ', 'NoIdentificacion?', 'Cantidad', 'ClaveUnidad', 'Unidad?', 'Descripcion', 'ValorUnitario',
    'Importe', 'Descuento?', 'ObjetoImp',
  ]);
  for (const t of path(el, C, 'Impuestos', 'Traslados', 'Traslado')) w.fields(t, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota?', 'Importe?']);
  for (const r of path(el, C, 'Impuestos', 'Retenciones', 'Retencion')) w.fields(r, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota', 'Importe']);
  for (const t of children(el, C, 'ACuentaTerceros')) {
    w.fields(t, ['RfcACuentaTerceros', 'NombreACuentaTerceros', 'RegimenFiscalACuentaTerceros', 'DomicilioFiscalACuentaTerceros']);
  }
  for (const a of children(el, C, 'InformacionAduanera')) w.req(a, 'NumeroPedimento');
  for (const p of children(el, C, 'CuentaPredial')) w.req(p, 'Numero');
  if (child(el, C, 'ComplementoConcepto')) {
    throw new Error('cadenaOriginal: ComplementoConcepto is not supported');
  }
  for (const parte of descendants(el, C, 'Parte')) {
    w.fields(parte, ['ClaveProdServ', 'NoIdentificacion?', 'Cantidad', 'Unidad?', 'Descripcion', 'ValorUnitario?', 'Importe?']);
    for (const a of descendants(parte, C, 'InformacionAduanera')) w.req(a, 'NumeroPedimento');
  }
}

function writeImpuestos(w: CadenaWriter, el: Element): void {
  for (const r of path(el, C, 'Retenciones', 'Retencion')) w.fields(r, ['Impuesto', 'Importe']);
  w.opt(el, 'TotalImpuestosRetenidos');
  for (const t of path(el, C, 'Traslados', 'Traslado')) w.fields(t, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota?', 'Importe?']);
  w.opt(el, 'TotalImpuestosTrasladados');
}

/**
 * Complement templates in document order. The TFD has no template in the stylesheet and no
 * text content, so it contributes nothing (the cadena is unchanged by stamping). Other
 * complements are refused rather than risking a cadena that differs from the SAT's.
 */
function writeComplemento(w: CadenaWriter, el: Element): void {
  for (const c of elementChildren(el)) {
    if (c.namespaceURI === NS.pago20 && c.localName === 'Pagos') writePagos20(w, c);
    else if (c.namespaceURI === NS.nomina12 && c.localName === 'Nomina') writeNomina12(w, c);
    else if (c.namespaceURI === NS.tfd && c.localName === 'TimbreFiscalDigital') continue;
    else throw new Error(`cadenaOriginal: complement {${c.namespaceURI ?? ''}}${c.localName ?? ''} is not supported`);
  }
}
