import type { Document } from '@xmldom/xmldom';
import { NS } from '../xml/dom';
import { writeRetenciones } from '../retenciones/cadena';
import { writeComprobante } from './comprobante';
import { parseTree } from './fast-xml';
import { fromDom, type XmlNode } from './tree';
import { CadenaWriter } from './writer';

/**
 * Cadena original of a CFDI 4.0, byte-identical to xsltproc with the SAT's
 * cadenaoriginal_4_0.xslt for I/E/T/P/N documents with Pagos 2.0, Nómina 1.2, Comercio Exterior 2.0, Carta Porte 3.1 and TFD, or of a
 * Retenciones 2.0 certificate (retenciones.xslt), chosen by the root element so sealXml and
 * verifySeal serve both.
 * Strings go through the fast reader (xmldom only for documents with a DOCTYPE); an
 * already parsed xmldom Document is adapted as is.
 */
export function cadenaOriginal(xml: string | Document): string {
  return cadenaOfTree(typeof xml === 'string' ? parseTree(xml) : fromDom(xml));
}

/** Cadena of an already parsed document (see parseTree). */
export function cadenaOfTree(root: XmlNode): string {
  if (root.namespaceURI === NS.retenciones && root.localName === 'Retenciones') {
    const w = new CadenaWriter();
    writeRetenciones(w, root);
    return w.toString();
  }
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante') {
    throw new Error(
      'cadenaOriginal: the root element is neither a CFDI 4.0 cfdi:Comprobante nor a Retenciones 2.0',
    );
  }
  const w = new CadenaWriter();
  writeComprobante(w, root);
  return w.toString();
}
