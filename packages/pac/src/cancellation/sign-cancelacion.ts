import type { KeyObject } from 'node:crypto';
import { x509KeyInfo } from './x509-key-info';
import { loadXmlCrypto } from './xml-crypto';

export interface SigningCsd {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/**
 * Enveloped XML-DSig over the whole `Cancelacion`, as in the SAT samples: inclusive C14N,
 * RSA-SHA1 and SHA-1 digest. Signing happens here, with the merchant's CSD: the PAC only ever
 * receives the signed document, never the private key.
 */
export function signCancelacion(xml: string, csd: SigningCsd): string {
  const sig = new (loadXmlCrypto().SignedXml)({
    privateKey: csd.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    canonicalizationAlgorithm: C14N,
    getKeyInfoContent: () => x509KeyInfo(csd.certificateDer),
  });
  sig.addReference({
    xpath: '/*',
    uri: '',
    isEmptyUri: true,
    // Only the enveloped-signature transform, as the SAT samples: C14N is then implied (XML-DSig §4.3.3.2).
    transforms: [ENVELOPED],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  sig.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return sig.getSignedXml();
}
