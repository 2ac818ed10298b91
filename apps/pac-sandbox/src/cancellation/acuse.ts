import { X509Certificate } from 'node:crypto';
import { CANCELACION_NS, escapeXml } from '@cfdi/pac';
import { SignedXml } from 'xml-crypto';
import type { SatCredentials } from '../sat/sat-credentials';

export interface AcuseFolio {
  uuid: string;
  estatusUuid: string;
}

/**
 * The SAT acuse de cancelación (cfdi40.md §8.3): Folios with per-UUID EstatusUUID and an enveloped
 * `Signature Id="SelloSAT"` made with the sandbox SAT key (RSA-SHA512; the SAT's HMAC variant
 * cannot be verified by anyone without its secret, which defeats a sandbox's purpose).
 */
export function buildAcuse(
  input: { fecha: string; rfcEmisor: string; folios: readonly AcuseFolio[] },
  sat: SatCredentials,
): string {
  const folios = input.folios
    .map(
      (f) =>
        `<Folios><UUID>${escapeXml(f.uuid)}</UUID><EstatusUUID>${escapeXml(f.estatusUuid)}</EstatusUUID></Folios>`,
    )
    .join('');
  const unsigned = `<Acuse xmlns="${CANCELACION_NS}" Fecha="${escapeXml(input.fecha)}" RfcEmisor="${escapeXml(input.rfcEmisor)}">${folios}</Acuse>`;
  const keyName = Buffer.from(new X509Certificate(sat.certificateDer).serialNumber, 'hex').toString('latin1');
  const sig = new SignedXml({
    privateKey: sat.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
    getKeyInfoContent: () =>
      `<KeyName>${keyName}</KeyName><X509Data><X509Certificate>${sat.certificateDer.toString('base64')}</X509Certificate></X509Data>`,
  });
  sig.addReference({
    xpath: '/*',
    uri: '',
    isEmptyUri: true,
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha512',
  });
  sig.computeSignature(unsigned, {
    location: { reference: '/*', action: 'append' },
    attrs: { Id: 'SelloSAT' },
  });
  return sig.getSignedXml();
}
