import type { RelatedDocuments } from '../types';
import { attr, NS, parseXml, path, rootElement } from './dom';

/** The CfdiRelacionados of a CFDI as written: what it relates, per TipoRelacion (UUIDs uppercased). */
export function cfdiRelacionados(xml: string): RelatedDocuments[] {
  const root = rootElement(parseXml(xml));
  if (root.namespaceURI !== NS.cfdi || root.localName !== 'Comprobante')
    throw new Error('not a CFDI 4.0 Comprobante');
  return path(root, NS.cfdi, 'CfdiRelacionados').map((node) => ({
    tipoRelacion: attr(node, 'TipoRelacion') ?? '',
    uuids: path(node, NS.cfdi, 'CfdiRelacionado').map((r) => (attr(r, 'UUID') ?? '').toUpperCase()),
  }));
}
