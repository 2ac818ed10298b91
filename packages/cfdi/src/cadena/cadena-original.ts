import type { Document } from '@xmldom/xmldom';
import { NS } from '../xml/dom';
import { writeComprobante } from './comprobante';
import { parseTree } from './fast-xml';
import { fromDom, type XmlNode } from './tree';
import { CadenaWriter } from './writer';

/**
 * Cadena original of a CFDI 4.0, byte-identical to xsltproc with the SAT's
 * cadenaoriginal_4_0.xslt for I/E/P/N documents with Pagos 2.0, Nómina 1.2 and TFD.
 * Strings go through the fast reader (xmldom only for documents with a DOCTYPE); an
 * already parsed xmldom Document is adapted as is.
 */
export function cadenaOriginal(xml: string | Document): string {
  return cadenaOfTree(typeof xml === 'string' ? parseTree(xml) : fromDom(xml));
}

/** Cadena of an already parsed document (see parseTree). */
export function cadenaOfTree(root: XmlNode): string {
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante') {
    throw new Error('cadenaOriginal: the root element is not a CFDI 4.0 cfdi:Comprobante');
  }
  const w = new CadenaWriter();
  writeComprobante(w, root);
  return w.toString();
}
