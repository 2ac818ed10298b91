import { inspectCertificate, type CertificateInfo } from '@cfdi/cfdi';

const MAX_ENTRIES = 1_000;
const cache = new Map<string, CertificateInfo>();

/**
 * inspectCertificate of a Comprobante@Certificado value, memoised: an issuer sends the same CSD with
 * every document and parsing it costs ~0.3 ms. The result depends only on the bytes (validity is
 * checked against the clock by the caller); a value that does not parse throws and is not kept.
 */
export function inspectCertificateBase64(base64: string): CertificateInfo {
  let info = cache.get(base64);
  if (!info) {
    info = inspectCertificate(Buffer.from(base64, 'base64'));
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(base64, info);
  }
  return info;
}
