import { X509Certificate } from 'node:crypto';
import { escapeXml } from '../soap/xml-escape';

/** RFC 4514 order (most specific last in the certificate, first here), as X509IssuerName expects. */
function issuerName(cert: X509Certificate): string {
  return cert.issuer
    .split('\n')
    .filter(Boolean)
    .reverse()
    .map((rdn) => {
      const eq = rdn.indexOf('=');
      return `${rdn.slice(0, eq)}=${rdn.slice(eq + 1).replace(/([,+"\\<>;])/g, '\\$1')}`;
    })
    .join(',');
}

const b64 = (b64url: string) => Buffer.from(b64url, 'base64url').toString('base64');

/**
 * KeyInfo content of the SAT samples: X509Data (IssuerSerial + Certificate) and the RSA key value,
 * so verifiers need nothing but the document.
 */
export function x509KeyInfo(certificateDer: Buffer): string {
  const cert = new X509Certificate(certificateDer);
  const jwk = cert.publicKey.export({ format: 'jwk' });
  const serial = BigInt(`0x${cert.serialNumber}`).toString(10);
  return (
    '<X509Data><X509IssuerSerial>' +
    `<X509IssuerName>${escapeXml(issuerName(cert))}</X509IssuerName>` +
    `<X509SerialNumber>${serial}</X509SerialNumber>` +
    `</X509IssuerSerial><X509Certificate>${certificateDer.toString('base64')}</X509Certificate></X509Data>` +
    `<KeyValue><RSAKeyValue><Modulus>${b64(jwk.n ?? '')}</Modulus><Exponent>${b64(jwk.e ?? '')}</Exponent></RSAKeyValue></KeyValue>`
  );
}
