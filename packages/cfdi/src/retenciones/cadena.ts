import { NS } from '../xml/dom';
import { kids, type XmlNode } from '../cadena/tree';
import type { CadenaWriter } from '../cadena/writer';

const R = NS.retenciones;

/**
 * Mirrors retenciones.xslt (Retenciones 2.0) template by template; the frame ("|" then "|value" per field, then
 * "||") is the CFDI's. Complements other than the TFD (no template, no text: it adds nothing) are refused rather
 * than risking a cadena that differs from the SAT's.
 */
export function writeRetenciones(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'Version',
    'NoCertificado',
    'FolioInt?',
    'FechaExp',
    'LugarExpRetenc',
    'CveRetenc',
    'DescRetenc?',
  ]);
  for (const rel of kids(el, R, 'CfdiRetenRelacionados')) w.fields(rel, ['TipoRelacion', 'UUID']);
  for (const e of kids(el, R, 'Emisor')) w.fields(e, ['RfcE', 'NomDenRazSocE', 'RegimenFiscalE']);
  for (const r of kids(el, R, 'Receptor')) {
    w.req(r, 'NacionalidadR');
    const [nacional] = kids(r, R, 'Nacional');
    if (nacional) w.fields(nacional, ['RfcR', 'NomDenRazSocR', 'CurpR?', 'DomicilioFiscalR']);
    const [extranjero] = kids(r, R, 'Extranjero');
    if (extranjero) w.fields(extranjero, ['NumRegIdTribR?', 'NomDenRazSocR']);
  }
  for (const p of kids(el, R, 'Periodo')) w.fields(p, ['MesIni', 'MesFin', 'Ejercicio']);
  for (const t of kids(el, R, 'Totales')) {
    w.fields(t, [
      'MontoTotOperacion',
      'MontoTotGrav',
      'MontoTotExent',
      'MontoTotRet',
      'UtilidadBimestral?',
      'ISRCorrespondiente?',
    ]);
    for (const imp of kids(t, R, 'ImpRetenidos'))
      w.fields(imp, ['BaseRet?', 'ImpuestoRet?', 'MontoRet', 'TipoPagoRet']);
  }
  for (const comp of kids(el, R, 'Complemento')) {
    for (const c of comp.children) {
      if (c.namespaceURI !== NS.tfd || c.localName !== 'TimbreFiscalDigital') {
        throw new Error(`cadenaOriginal: the retenciones complement ${c.localName} is not supported`);
      }
    }
  }
}
