import { sealXml } from '@cfdi/cfdi';
import { exampleXml, type TestCsd } from './sat-files';

/** Root attributes to override on the SAT example invoice (EKU9003173C9 → URE180429TM6, total 31920.00). */
export type RootOverrides = Record<string, string>;

/** Replaces (or adds) attributes on the root start tag of a CFDI, leaving the rest byte-identical. */
export function setRoot(xml: string, values: RootOverrides): string {
  const start = xml.indexOf('<cfdi:Comprobante');
  const end = xml.indexOf('>', start);
  let tag = xml.slice(start, end);
  for (const [name, value] of Object.entries(values)) {
    const re = new RegExp(`\\s${name}="[^"]*"`);
    tag = re.test(tag) ? tag.replace(re, ` ${name}="${value}"`) : `${tag} ${name}="${value}"`;
  }
  return xml.slice(0, start) + tag + xml.slice(end);
}

export interface InvoiceSpec {
  fecha: string;
  folio: string;
  csd: TestCsd;
  /** Edits applied to the unsealed XML (receiver, descriptions, …). */
  edit?: (xml: string) => string;
  root?: RootOverrides;
}

/** The SAT example income invoice with a new Fecha and Folio, sealed with `csd` (via @cfdi/cfdi). */
export function sealedInvoice(spec: InvoiceSpec): string {
  let xml = setRoot(exampleXml('cfdi40-ingreso.xml'), { Fecha: spec.fecha, Folio: spec.folio, ...spec.root });
  if (spec.edit) xml = spec.edit(xml);
  return sealXml(xml, spec.csd).xml;
}

/** Sets the issuer (Emisor) of the example to another taxpayer. */
export function withEmisor(rfc: string, nombre: string): (xml: string) => string {
  return (xml) =>
    xml.replace(
      /<cfdi:Emisor [^>]*\/>/,
      `<cfdi:Emisor Rfc="${rfc}" Nombre="${nombre}" RegimenFiscal="601"/>`,
    );
}

export function withReceptorRfc(rfc: string): (xml: string) => string {
  return (xml) => xml.replace(/(<cfdi:Receptor Rfc=")[^"]*"/, `$1${rfc}"`);
}

export function withDescription(text: string): (xml: string) => string {
  return (xml) => xml.replace(/Descripcion="[^"]*"/, `Descripcion="${text}"`);
}

/** Relates the document to `uuid` (CfdiRelacionados goes right before Emisor, XSD order). */
export function withRelated(tipoRelacion: string, uuid: string): (xml: string) => string {
  return (xml) =>
    xml.replace(
      '<cfdi:Emisor ',
      `<cfdi:CfdiRelacionados TipoRelacion="${tipoRelacion}"><cfdi:CfdiRelacionado UUID="${uuid}"/></cfdi:CfdiRelacionados><cfdi:Emisor `,
    );
}
