import { appendTfd, buildTfd, sealXml, type Csd } from '../src';

/**
 * Sandbox stamp: a TFD signed with a test CSD instead of the SAT's key (like the MOCK
 * example). Structure and cadenas are real; only the signer differs.
 */
export function mockStamp(
  xml: string,
  csd: Csd,
  uuid: string,
  fechaTimbrado = '2026-11-21T12:31:00',
): string {
  const sealed = sealXml(xml, csd);
  const tfd = buildTfd({
    uuid,
    fechaTimbrado,
    rfcProvCertif: 'AAA010101AAA',
    selloCFD: sealed.sello,
    sat: csd,
  });
  return appendTfd(sealed.xml, tfd.xml);
}
