import type { Element } from '@xmldom/xmldom';
import { parseStrictXml } from '@cfdi/pac';
import type { ReadResult } from './read-comprobante';

const NS_RET = 'http://www.sat.gob.mx/esquemas/retencionpago/2';
const NS_TFD = 'http://www.sat.gob.mx/TimbreFiscalDigital';
/** The RFC a foreign receiver stands for in the PAC's records (the certificate names none). */
const RFC_EXTRANJERO = 'XEXX010101000';

/** The type a retention certificate is recorded with (a CFDI records its TipoDeComprobante). */
export const RETENTION_TYPE = 'RET';

const REQUIRED_ROOT = [
  'Version',
  'Sello',
  'NoCertificado',
  'Certificado',
  'FechaExp',
  'LugarExpRetenc',
  'CveRetenc',
];

const child = (el: Element, localName: string): Element | undefined => {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    const c = n as Element;
    if (n.nodeType === 1 && c.namespaceURI === NS_RET && c.localName === localName) return c;
  }
  return undefined;
};

/**
 * Parses a Retenciones 2.0 certificate into the facts the PAC's checks share with a CFDI (FechaExp is the date
 * of issue, MontoTotRet the amount on record, type RET). Only the parts the PAC relies on are checked here (301).
 */
export function readRetenciones(xml: string): ReadResult {
  let root: Element | null;
  try {
    root = parseStrictXml(xml);
  } catch (err) {
    return { ok: false, code: '301', detail: `XML mal formado: ${(err as Error).message}` };
  }
  if (!root || root.namespaceURI !== NS_RET || root.localName !== 'Retenciones')
    return {
      ok: false,
      code: '301',
      detail: 'el elemento raíz no es retenciones:Retenciones de Retenciones 2.0',
    };
  if (root.getAttribute('Version') !== '2.0')
    return { ok: false, code: '301', detail: 'Version debe ser 2.0' };
  const emisor = child(root, 'Emisor');
  const receptor = child(root, 'Receptor');
  const totales = child(root, 'Totales');
  const nacional = receptor && child(receptor, 'Nacional');
  const problems = [
    ...REQUIRED_ROOT.filter((n) => !root.hasAttribute(n)).map((n) => `falta Retenciones@${n}`),
    ...(emisor?.hasAttribute('RfcE') ? [] : ['falta retenciones:Emisor@RfcE']),
    ...(receptor && (nacional || child(receptor, 'Extranjero')) ? [] : ['falta retenciones:Receptor']),
    ...(totales?.hasAttribute('MontoTotRet') ? [] : ['falta retenciones:Totales@MontoTotRet']),
  ];
  if (problems.length || !emisor || !totales) return { ok: false, code: '301', detail: problems.join('; ') };
  const related = child(root, 'CfdiRetenRelacionados');
  return {
    ok: true,
    facts: {
      fecha: root.getAttribute('FechaExp') ?? '',
      sello: root.getAttribute('Sello') ?? '',
      noCertificado: root.getAttribute('NoCertificado') ?? '',
      certificado: root.getAttribute('Certificado') ?? '',
      total: totales.getAttribute('MontoTotRet') ?? '',
      tipoDeComprobante: RETENTION_TYPE,
      emisorRfc: emisor.getAttribute('RfcE') ?? '',
      receptorRfc: nacional?.getAttribute('RfcR') ?? RFC_EXTRANJERO,
      global: false,
      hasTfd: root.getElementsByTagNameNS(NS_TFD, 'TimbreFiscalDigital').length > 0,
      conceptos: [],
      relations: related
        ? [
            {
              relatedUuid: related.getAttribute('UUID') ?? '',
              tipoRelacion: related.getAttribute('TipoRelacion') ?? '',
            },
          ]
        : [],
    },
  };
}
