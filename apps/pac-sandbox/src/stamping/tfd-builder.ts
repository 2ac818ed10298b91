import { noCertificadoFromSerial, signCadena, tfdCadena, type BuiltTfd, type Tfd } from '@cfdi/cfdi';
import { X509Certificate } from 'node:crypto';
import type { SatCredentials } from '../sat/sat-credentials';

const NS_TFD = 'http://www.sat.gob.mx/TimbreFiscalDigital';
const NS_XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const SCHEMA_LOCATION = `${NS_TFD} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const escapeAttr = (value: string) => value.replace(/[&<>"\t\n\r]/g, (c) => ESCAPES[c]!);

export type TfdBuilder = (uuid: string, fechaTimbrado: string, selloCFD: string) => BuiltTfd;

/**
 * @cfdi/cfdi's buildTfd, byte for byte (test/tfd-builder.test.ts), with NoCertificadoSAT read once:
 * buildTfd parses the SAT certificate on every call, about a tenth of a stamp's CPU.
 */
export function tfdBuilder(sat: SatCredentials, rfcProvCertif: string): TfdBuilder {
  const noCertificadoSAT = noCertificadoFromSerial(new X509Certificate(sat.certificateDer).serialNumber);
  return (uuid, fechaTimbrado, selloCFD) => {
    const fields = {
      version: '1.1',
      uuid: uuid.toUpperCase(),
      fechaTimbrado,
      rfcProvCertif,
      selloCFD,
      noCertificadoSAT,
    };
    const cadena = tfdCadena(fields);
    const tfd: Tfd = { ...fields, selloSAT: signCadena(cadena, sat.privateKey) };
    const attrs: Array<[string, string]> = [
      ['Version', tfd.version],
      ['UUID', tfd.uuid],
      ['FechaTimbrado', tfd.fechaTimbrado],
      ['RfcProvCertif', tfd.rfcProvCertif],
      ['SelloCFD', tfd.selloCFD],
      ['NoCertificadoSAT', tfd.noCertificadoSAT],
      ['SelloSAT', tfd.selloSAT],
    ];
    const body = attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('');
    const xml = `<tfd:TimbreFiscalDigital xmlns:tfd="${NS_TFD}" xmlns:xsi="${NS_XSI}" xsi:schemaLocation="${SCHEMA_LOCATION}"${body}/>`;
    return { tfd, cadena, xml };
  };
}
