import type { Element } from '@xmldom/xmldom';
import { parseStrictXml } from '@cfdi/pac';
import type { Relation } from '../storage/stamps';

const NS_CFDI = 'http://www.sat.gob.mx/cfd/4';
const NS_TFD = 'http://www.sat.gob.mx/TimbreFiscalDigital';
const NS_PAGOS = 'http://www.sat.gob.mx/Pagos20';

export interface ComprobanteFacts {
  fecha: string;
  sello: string;
  noCertificado: string;
  certificado: string;
  total: string;
  tipoDeComprobante: string;
  emisorRfc: string;
  receptorRfc: string;
  global: boolean;
  hasTfd: boolean;
  conceptos: Element[];
  relations: Relation[];
}

export type ReadResult = { ok: true; facts: ComprobanteFacts } | { ok: false; code: '301'; detail: string };

const REQUIRED_ROOT = [
  'Version',
  'Fecha',
  'Sello',
  'NoCertificado',
  'Certificado',
  'SubTotal',
  'Moneda',
  'Total',
  'TipoDeComprobante',
  'Exportacion',
  'LugarExpedicion',
];
const REQUIRED_EMISOR = ['Rfc', 'Nombre', 'RegimenFiscal'];
const REQUIRED_RECEPTOR = ['Rfc', 'Nombre', 'DomicilioFiscalReceptor', 'RegimenFiscalReceptor', 'UsoCFDI'];
const REQUIRED_CONCEPTO = [
  'ClaveProdServ',
  'Cantidad',
  'ClaveUnidad',
  'Descripcion',
  'ValorUnitario',
  'Importe',
  'ObjetoImp',
];

/** Parses a CFDI 4.0 and checks the structure the XSD requires of the parts the PAC relies on (301). */
export function readComprobante(xml: string): ReadResult {
  let root: Element | null;
  try {
    root = parseStrictXml(xml);
  } catch (err) {
    return { ok: false, code: '301', detail: `XML mal formado: ${(err as Error).message}` };
  }
  if (!root || root.namespaceURI !== NS_CFDI || root.localName !== 'Comprobante') {
    return { ok: false, code: '301', detail: 'el elemento raíz no es cfdi:Comprobante de CFDI 4.0' };
  }
  if (root.getAttribute('Version') !== '4.0')
    return { ok: false, code: '301', detail: 'Version debe ser 4.0' };
  const missing = missingAttrs(root, REQUIRED_ROOT, 'Comprobante');
  const emisor = only(root, 'Emisor');
  const receptor = only(root, 'Receptor');
  const conceptosEl = only(root, 'Conceptos');
  const conceptos = conceptosEl ? cfdiChildren(conceptosEl, 'Concepto') : [];
  const problems = [
    ...missing,
    ...(emisor ? missingAttrs(emisor, REQUIRED_EMISOR, 'Emisor') : ['falta cfdi:Emisor']),
    ...(receptor ? missingAttrs(receptor, REQUIRED_RECEPTOR, 'Receptor') : ['falta cfdi:Receptor']),
    ...(conceptos.length
      ? conceptos.flatMap((c) => missingAttrs(c, REQUIRED_CONCEPTO, 'Concepto'))
      : ['falta cfdi:Conceptos/cfdi:Concepto']),
  ];
  if (problems.length || !emisor || !receptor) return { ok: false, code: '301', detail: problems.join('; ') };
  return {
    ok: true,
    facts: {
      fecha: root.getAttribute('Fecha') ?? '',
      sello: root.getAttribute('Sello') ?? '',
      noCertificado: root.getAttribute('NoCertificado') ?? '',
      certificado: root.getAttribute('Certificado') ?? '',
      total: root.getAttribute('Total') ?? '',
      tipoDeComprobante: root.getAttribute('TipoDeComprobante') ?? '',
      emisorRfc: emisor.getAttribute('Rfc') ?? '',
      receptorRfc: receptor.getAttribute('Rfc') ?? '',
      global: Boolean(only(root, 'InformacionGlobal')),
      hasTfd: root.getElementsByTagNameNS(NS_TFD, 'TimbreFiscalDigital').length > 0,
      conceptos,
      relations: relationsOf(root),
    },
  };
}

function relationsOf(root: Element): Relation[] {
  const related = cfdiChildren(root, 'CfdiRelacionados').flatMap((group) =>
    cfdiChildren(group, 'CfdiRelacionado').map((r) => ({
      relatedUuid: r.getAttribute('UUID') ?? '',
      tipoRelacion: group.getAttribute('TipoRelacion') ?? '',
    })),
  );
  const paid = Array.from(root.getElementsByTagNameNS(NS_PAGOS, 'DoctoRelacionado')).map((d) => ({
    relatedUuid: d.getAttribute('IdDocumento') ?? '',
    tipoRelacion: 'pago',
  }));
  return [...related, ...paid].filter((r) => r.relatedUuid);
}

function cfdiChildren(el: Element, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const c = n as Element;
    if (n.nodeType === 1 && c.namespaceURI === NS_CFDI && c.localName === localName) out.push(c);
  }
  return out;
}

function only(el: Element, localName: string): Element | undefined {
  return cfdiChildren(el, localName)[0];
}

function missingAttrs(el: Element, names: readonly string[], where: string): string[] {
  return names.filter((n) => !el.hasAttribute(n)).map((n) => `falta ${where}@${n}`);
}
