import type { Element } from '@xmldom/xmldom';
import { X509Certificate } from 'node:crypto';
import { descendant, parseStrictXml } from '../soap/envelope';
import { loadXmlCrypto } from './xml-crypto';

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export type SignatureCheck =
  { valid: true; certificateDer: Buffer } | { valid: false; reason: string; certificateDer?: Buffer };

/**
 * Verifies the enveloped XML-DSig of a document against the X509Certificate it carries.
 * Who the certificate belongs to (RFC, CSD vs FIEL, validity) is the caller's decision.
 */
export function verifyEnvelopedSignature(xml: string): SignatureCheck {
  let root: Element | null;
  try {
    root = parseStrictXml(xml);
  } catch (err) {
    return { valid: false, reason: `not XML: ${(err as Error).message}` };
  }
  const signature = root ? findSignature(root) : undefined;
  if (!signature) return { valid: false, reason: 'no ds:Signature' };
  const certText = descendant(signature, 'X509Certificate')?.textContent?.replace(/\s+/g, '');
  if (!certText) return { valid: false, reason: 'no X509Certificate in KeyInfo' };
  const certificateDer = Buffer.from(certText, 'base64');
  let pem: string;
  try {
    pem = new X509Certificate(certificateDer).toString();
  } catch {
    return { valid: false, reason: 'X509Certificate is not a certificate' };
  }
  const verifier = new (loadXmlCrypto().SignedXml)({ publicCert: pem, getCertFromKeyInfo: () => null });
  try {
    verifier.loadSignature(signature);
    if (verifier.checkSignature(xml)) return { valid: true, certificateDer };
    return { valid: false, reason: 'signature does not verify', certificateDer };
  } catch (err) {
    return { valid: false, reason: (err as Error).message, certificateDer };
  }
}

function findSignature(root: Element): Element | undefined {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    const el = n as Element;
    if (n.nodeType === 1 && el.localName === 'Signature' && el.namespaceURI === DSIG_NS) return el;
  }
  return undefined;
}
