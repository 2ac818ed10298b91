import { parseTree } from '../cadena/fast-xml';
import { kids, type XmlNode } from '../cadena/tree';
import { parseTfd } from '../tfd/tfd';
import { NS } from '../xml/dom';
import { verificationUrl } from './verification-url';

/** The verification URL of a stamped CFDI (needs its TFD for the UUID). */
export function verificationUrlFromXml(xml: string): string {
  const root = parseTree(xml);
  const tfd = parseTfd(root);
  if (!tfd) throw new Error('verificationUrl: the document is not stamped (no TimbreFiscalDigital)');
  return verificationUrlFromTree(root, tfd.uuid);
}

/** Same, from a document the caller already parsed (root = cfdi:Comprobante) and its TFD's UUID. */
export function verificationUrlFromTree(root: XmlNode, uuid: string): string {
  const rfc = (name: string) => kids(root, NS.cfdi, name)[0]?.attributes.get('Rfc') ?? '';
  return verificationUrl({
    uuid,
    rfcEmisor: rfc('Emisor'),
    rfcReceptor: rfc('Receptor'),
    total: root.attributes.get('Total') ?? '0',
    sello: root.attributes.get('Sello') ?? '',
  });
}
