import { NS } from '../xml/dom';
import { descendantsOf, kids, walk, type XmlNode } from './tree';
import { writeCartaPorte31 } from '../carta-porte/cadena';
import { writeComercioExterior20 } from '../comercio-exterior/cadena';
import { writeNomina12 } from './nomina12';
import { writePagos20 } from './pagos20';
import type { CadenaWriter } from './writer';

const C = NS.cfdi;

/** Mirrors cadenaoriginal_4_0.xslt template by template (field order of cfdi40.md §3.2). */
export function writeComprobante(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'Version',
    'Serie?',
    'Folio?',
    'Fecha',
    'FormaPago?',
    'NoCertificado',
    'CondicionesDePago?',
    'SubTotal',
    'Descuento?',
    'Moneda',
    'TipoCambio?',
    'Total',
    'TipoDeComprobante',
    'Exportacion',
    'MetodoPago?',
    'LugarExpedicion',
    'Confirmacion?',
  ]);
  for (const ig of kids(el, C, 'InformacionGlobal')) w.fields(ig, ['Periodicidad', 'Meses', 'Año']);
  for (const rel of kids(el, C, 'CfdiRelacionados')) {
    w.req(rel, 'TipoRelacion');
    for (const r of kids(rel, C, 'CfdiRelacionado')) w.req(r, 'UUID');
  }
  for (const e of kids(el, C, 'Emisor')) w.fields(e, ['Rfc', 'Nombre', 'RegimenFiscal', 'FacAtrAdquirente?']);
  for (const r of kids(el, C, 'Receptor')) {
    w.fields(r, [
      'Rfc',
      'Nombre',
      'DomicilioFiscalReceptor',
      'ResidenciaFiscal?',
      'NumRegIdTrib?',
      'RegimenFiscalReceptor',
      'UsoCFDI',
    ]);
  }
  for (const conceptos of kids(el, C, 'Conceptos')) {
    for (const concepto of kids(conceptos, C, 'Concepto')) writeConcepto(w, concepto);
  }
  for (const imp of kids(el, C, 'Impuestos')) writeImpuestos(w, imp);
  for (const comp of kids(el, C, 'Complemento')) writeComplemento(w, comp);
}

function writeConcepto(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'ClaveProdServ',
    'NoIdentificacion?',
    'Cantidad',
    'ClaveUnidad',
    'Unidad?',
    'Descripcion',
    'ValorUnitario',
    'Importe',
    'Descuento?',
    'ObjetoImp',
  ]);
  for (const t of walk(el, C, 'Impuestos', 'Traslados', 'Traslado'))
    w.fields(t, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota?', 'Importe?']);
  for (const r of walk(el, C, 'Impuestos', 'Retenciones', 'Retencion'))
    w.fields(r, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota', 'Importe']);
  for (const t of kids(el, C, 'ACuentaTerceros')) {
    w.fields(t, [
      'RfcACuentaTerceros',
      'NombreACuentaTerceros',
      'RegimenFiscalACuentaTerceros',
      'DomicilioFiscalACuentaTerceros',
    ]);
  }
  for (const a of kids(el, C, 'InformacionAduanera')) w.req(a, 'NumeroPedimento');
  for (const p of kids(el, C, 'CuentaPredial')) w.req(p, 'Numero');
  if (kids(el, C, 'ComplementoConcepto').length > 0) {
    throw new Error('cadenaOriginal: ComplementoConcepto is not supported');
  }
  for (const parte of descendantsOf(el, C, 'Parte')) {
    w.fields(parte, [
      'ClaveProdServ',
      'NoIdentificacion?',
      'Cantidad',
      'Unidad?',
      'Descripcion',
      'ValorUnitario?',
      'Importe?',
    ]);
    for (const a of descendantsOf(parte, C, 'InformacionAduanera')) w.req(a, 'NumeroPedimento');
  }
}

function writeImpuestos(w: CadenaWriter, el: XmlNode): void {
  for (const r of walk(el, C, 'Retenciones', 'Retencion')) w.fields(r, ['Impuesto', 'Importe']);
  w.opt(el, 'TotalImpuestosRetenidos');
  for (const t of walk(el, C, 'Traslados', 'Traslado'))
    w.fields(t, ['Base', 'Impuesto', 'TipoFactor', 'TasaOCuota?', 'Importe?']);
  w.opt(el, 'TotalImpuestosTrasladados');
}

/**
 * Complement templates in document order. The TFD has no template in the stylesheet and no
 * text content, so it contributes nothing (the cadena is unchanged by stamping). Other
 * complements are refused rather than risking a cadena that differs from the SAT's.
 */
function writeComplemento(w: CadenaWriter, el: XmlNode): void {
  for (const c of el.children) {
    if (c.namespaceURI === NS.pago20 && c.localName === 'Pagos') writePagos20(w, c);
    else if (c.namespaceURI === NS.nomina12 && c.localName === 'Nomina') writeNomina12(w, c);
    else if (c.namespaceURI === NS.cce20 && c.localName === 'ComercioExterior') writeComercioExterior20(w, c);
    else if (c.namespaceURI === NS.cartaporte31 && c.localName === 'CartaPorte') writeCartaPorte31(w, c);
    else if (c.namespaceURI === NS.tfd && c.localName === 'TimbreFiscalDigital') continue;
    else
      throw new Error(`cadenaOriginal: complement {${c.namespaceURI ?? ''}}${c.localName} is not supported`);
  }
}
