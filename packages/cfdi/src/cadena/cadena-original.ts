import type { Document } from '@xmldom/xmldom';
import { NS, parseXml, rootElement } from '../xml/dom';
import { writeComprobante } from './comprobante';
import { CadenaWriter } from './writer';

/**
 * Cadena original of a CFDI 4.0, byte-identical to xsltproc with the SAT's
 * cadenaoriginal_4_0.xslt for I/E/P/N documents with Pagos 2.0, Nómina 1.2 and TFD.
 * The root must be cfdi:Comprobante (the XSLT would otherwise yield just "|||").
 */
export function cadenaOriginal(xml: string | Document): string {
  const doc = typeof xml === 'string' ? parseXml(xml) : xml;
  const root = rootElement(doc);
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante') {
    throw new Error('cadenaOriginal: the root element is not a CFDI 4.0 cfdi:Comprobante');
  }
  const w = new CadenaWriter();
  writeComprobante(w, root);
  return w.toString();
}
