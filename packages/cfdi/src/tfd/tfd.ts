import { X509Certificate } from 'node:crypto';
import { normalizeSpace } from '../cadena/normalize-space';
import { CadenaWriter } from '../cadena/writer';
import { noCertificadoFromSerial } from '../seal/certificate';
import { signCadena, type Csd } from '../seal/seal';
import { parseTree } from '../cadena/fast-xml';
import { descendantsOf, type XmlNode } from '../cadena/tree';
import { NS } from '../xml/dom';
import { rootStartTag } from '../xml/root-attributes';
import { createRoot, serializeElement } from '../xml/builder';

const SCHEMA_LOCATION = `${NS.tfd} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;

export interface Tfd {
  version: string;
  uuid: string;
  fechaTimbrado: string;
  rfcProvCertif: string;
  leyenda?: string;
  selloCFD: string;
  noCertificadoSAT: string;
  selloSAT: string;
}

export interface BuildTfdInput {
  uuid: string;
  /** Local date-time without zone (YYYY-MM-DDTHH:MM:SS). */
  fechaTimbrado: string;
  rfcProvCertif: string;
  leyenda?: string;
  /** Comprobante@Sello of the document being stamped. */
  selloCFD: string;
  /** Certificate and key that sign SelloSAT (the SAT's, or a test CSD in a sandbox). */
  sat: Csd;
}

export interface BuiltTfd {
  tfd: Tfd;
  cadena: string;
  /** The tfd:TimbreFiscalDigital element, declaring its own namespaces (cfdi40.md §4). */
  xml: string;
}

type TfdFields = Omit<Tfd, 'selloSAT'>;

/** ||Version|UUID|FechaTimbrado|RfcProvCertif|Leyenda?|SelloCFD|NoCertificadoSAT|| */
export function tfdCadena(source: string | TfdFields): string {
  if (typeof source === 'string') {
    const el = findTfd(source);
    if (!el) throw new Error('tfdCadena: no tfd:TimbreFiscalDigital in the document');
    return new CadenaWriter()
      .fields(el, [
        'Version',
        'UUID',
        'FechaTimbrado',
        'RfcProvCertif',
        'Leyenda?',
        'SelloCFD',
        'NoCertificadoSAT',
      ])
      .toString();
  }
  const parts = [source.version, source.uuid, source.fechaTimbrado, source.rfcProvCertif];
  if (source.leyenda !== undefined) parts.push(source.leyenda);
  parts.push(source.selloCFD, source.noCertificadoSAT);
  // Built values pass through the same normalisation as parsed ones.
  return `||${parts.map(normalizeSpace).join('|')}||`;
}

// A PAC signs every stamp with the same certificate: parse it once per buffer, not once per stamp.
const noCertificados = new WeakMap<Buffer, string>();
function noCertificadoOf(certificateDer: Buffer): string {
  let noCertificado = noCertificados.get(certificateDer);
  if (noCertificado === undefined) {
    noCertificado = noCertificadoFromSerial(new X509Certificate(certificateDer).serialNumber);
    noCertificados.set(certificateDer, noCertificado);
  }
  return noCertificado;
}

export function buildTfd(input: BuildTfdInput): BuiltTfd {
  const fields: TfdFields = {
    version: '1.1',
    uuid: input.uuid.toUpperCase(),
    fechaTimbrado: input.fechaTimbrado,
    rfcProvCertif: input.rfcProvCertif,
    ...(input.leyenda !== undefined ? { leyenda: input.leyenda } : {}),
    selloCFD: input.selloCFD,
    noCertificadoSAT: noCertificadoOf(input.sat.certificateDer),
  };
  const cadena = tfdCadena(fields);
  const tfd: Tfd = { ...fields, selloSAT: signCadena(cadena, input.sat.privateKey) };
  const element = createRoot(NS.tfd, 'tfd:TimbreFiscalDigital', {
    'xmlns:xsi': NS.xsi,
    'xsi:schemaLocation': SCHEMA_LOCATION,
    Version: tfd.version,
    UUID: tfd.uuid,
    FechaTimbrado: tfd.fechaTimbrado,
    RfcProvCertif: tfd.rfcProvCertif,
    ...(tfd.leyenda !== undefined ? { Leyenda: tfd.leyenda } : {}),
    SelloCFD: tfd.selloCFD,
    NoCertificadoSAT: tfd.noCertificadoSAT,
    SelloSAT: tfd.selloSAT,
  });
  const xml = serializeElement(element);
  return { tfd, cadena, xml };
}

/**
 * Appends the TFD as the last child of cfdi:Complemento (creating it before a possible
 * Addenda). Text insertion keeps the sealed bytes intact. A second TFD is refused (PAC 307).
 */
export function appendTfd(cfdiXml: string, tfdXml: string): string {
  if (findTfd(cfdiXml)) throw new Error('The document already has a TimbreFiscalDigital');
  const tag = rootStartTag(cfdiXml);
  const qname = cfdiXml.slice(tag.start + 1, tag.nameEnd);
  const prefix = qname.includes(':') ? `${qname.slice(0, qname.indexOf(':'))}:` : '';
  const addenda = cfdiXml.indexOf(`<${prefix}Addenda`);
  const limit = addenda >= 0 ? addenda : cfdiXml.lastIndexOf(`</${qname}>`); // Comprobante or Retenciones
  const close = cfdiXml.lastIndexOf(`</${prefix}Complemento>`, limit);
  if (close >= 0) return cfdiXml.slice(0, close) + tfdXml + cfdiXml.slice(close);
  const selfClosing = new RegExp(`<${prefix}Complemento\\s*/>`).exec(cfdiXml);
  if (selfClosing) {
    return (
      cfdiXml.slice(0, selfClosing.index) +
      `<${prefix}Complemento>${tfdXml}</${prefix}Complemento>` +
      cfdiXml.slice(selfClosing.index + selfClosing[0].length)
    );
  }
  return (
    cfdiXml.slice(0, limit) + `<${prefix}Complemento>${tfdXml}</${prefix}Complemento>` + cfdiXml.slice(limit)
  );
}

function findTfd(xml: string | XmlNode): XmlNode | undefined {
  const root = typeof xml === 'string' ? parseTree(xml) : xml;
  if (root.namespaceURI === NS.tfd && root.localName === 'TimbreFiscalDigital') return root;
  return descendantsOf(root, NS.tfd, 'TimbreFiscalDigital')[0];
}

/**
 * The TFD of a stamped document (its text, or its tree when the caller parsed it already), or undefined when it is
 * not stamped.
 */
export function parseTfd(xml: string | XmlNode): Tfd | undefined {
  const el = findTfd(xml);
  if (!el) return undefined;
  const a = (name: string): string => el.attributes.get(name) ?? '';
  const leyenda = el.attributes.get('Leyenda');
  return {
    version: a('Version'),
    uuid: a('UUID'),
    fechaTimbrado: a('FechaTimbrado'),
    rfcProvCertif: a('RfcProvCertif'),
    ...(leyenda !== undefined ? { leyenda } : {}),
    selloCFD: a('SelloCFD'),
    noCertificadoSAT: a('NoCertificadoSAT'),
    selloSAT: a('SelloSAT'),
  };
}
