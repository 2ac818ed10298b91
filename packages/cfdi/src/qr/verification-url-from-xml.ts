import { parseTfd } from '../tfd/tfd';
import { attr, children, NS, parseXml, rootElement } from '../xml/dom';
import { verificationUrl } from './verification-url';

/** The verification URL of a stamped CFDI (needs its TFD for the UUID). */
export function verificationUrlFromXml(xml: string): string {
  const root = rootElement(parseXml(xml));
  const tfd = parseTfd(xml);
  if (!tfd) throw new Error('verificationUrl: the document is not stamped (no TimbreFiscalDigital)');
  const emisor = children(root, NS.cfdi, 'Emisor')[0];
  const receptor = children(root, NS.cfdi, 'Receptor')[0];
  return verificationUrl({
    uuid: tfd.uuid,
    rfcEmisor: emisor ? attr(emisor, 'Rfc') ?? '' : '',
    rfcReceptor: receptor ? attr(receptor, 'Rfc') ?? '' : '',
    total: attr(root, 'Total') ?? '0',
    sello: attr(root, 'Sello') ?? '',
  });
}
