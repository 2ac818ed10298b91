import type { Element } from '@xmldom/xmldom';
import { dec } from '../decimal/money';
import { winAnsi } from './win-ansi';
import { attr, children, elementChildren, NS, parseXml, path, rootElement } from '../xml/dom';
import { parseTfd, tfdCadena, type Tfd } from '../tfd/tfd';
import { verificationUrlFromXml } from '../qr/verification-url-from-xml';

/** Everything the printed representation shows, read from the stamped XML (the XML is the truth). */
export interface CfdiView {
  comprobante: Record<string, string>;
  emisor: Record<string, string>;
  receptor: Record<string, string>;
  informacionGlobal?: Record<string, string>;
  relacionados: Array<{ tipoRelacion: string; uuids: string[] }>;
  conceptos: Array<{ attrs: Record<string, string>; pedimentos: string[]; taxes: Array<Record<string, string>> }>;
  traslados: Array<Record<string, string>>;
  retenciones: Array<Record<string, string>>;
  impuestos: Record<string, string>;
  pagos: Array<{ pago: Record<string, string>; doctos: Array<Record<string, string>> }>;
  nomina?: { attrs: Record<string, string>; lines: Array<{ section: string; tipo: string; clave: string; concepto: string; importe: string }> };
  tfd: Tfd;
  tfdCadena: string;
  qrUrl: string;
}

function attrs(el: Element | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!el) return out;
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (!a.name.startsWith('xmlns') && !a.name.startsWith('xsi:')) out[a.name] = winAnsi(a.value);
  }
  return out;
}

export function readCfdi(xml: string): CfdiView {
  const tfd = parseTfd(xml);
  if (!tfd) throw new Error('renderPdf: the document is not stamped (no TimbreFiscalDigital)');
  const root = rootElement(parseXml(xml));
  const C = NS.cfdi;
  const imp = children(root, C, 'Impuestos')[0];
  const complemento = children(root, C, 'Complemento')[0];
  const pagos = complemento ? children(complemento, NS.pago20, 'Pagos')[0] : undefined;
  const nomina = complemento ? children(complemento, NS.nomina12, 'Nomina')[0] : undefined;
  return {
    comprobante: attrs(root),
    emisor: attrs(children(root, C, 'Emisor')[0]),
    receptor: attrs(children(root, C, 'Receptor')[0]),
    ...(children(root, C, 'InformacionGlobal')[0] ? { informacionGlobal: attrs(children(root, C, 'InformacionGlobal')[0]) } : {}),
    relacionados: children(root, C, 'CfdiRelacionados').map((r) => ({
      tipoRelacion: attr(r, 'TipoRelacion') ?? '',
      uuids: children(r, C, 'CfdiRelacionado').map((c) => attr(c, 'UUID') ?? ''),
    })),
    conceptos: path(root, C, 'Conceptos', 'Concepto').map((c) => ({
      attrs: attrs(c),
      pedimentos: children(c, C, 'InformacionAduanera').map((a) => attr(a, 'NumeroPedimento') ?? ''),
      taxes: [...path(c, C, 'Impuestos', 'Traslados', 'Traslado'), ...path(c, C, 'Impuestos', 'Retenciones', 'Retencion')].map(attrs),
    })),
    traslados: imp ? path(imp, C, 'Traslados', 'Traslado').map(attrs) : [],
    retenciones: imp ? path(imp, C, 'Retenciones', 'Retencion').map(attrs) : [],
    impuestos: attrs(imp),
    pagos: pagos ? children(pagos, NS.pago20, 'Pago').map((p) => ({ pago: attrs(p), doctos: children(p, NS.pago20, 'DoctoRelacionado').map(attrs) })) : [],
    ...(nomina ? { nomina: { attrs: attrs(nomina), lines: nominaLines(nomina) } } : {}),
    tfd,
    tfdCadena: tfdCadena(xml),
    qrUrl: verificationUrlFromXml(xml),
  };
}

function nominaLines(nomina: Element): NonNullable<CfdiView['nomina']>['lines'] {
  const lines: NonNullable<CfdiView['nomina']>['lines'] = [];
  for (const group of elementChildren(nomina)) {
    for (const el of elementChildren(group)) {
      const a = attrs(el);
      if (el.localName === 'Percepcion') {
        const total = dec(a.ImporteGravado ?? 0).plus(dec(a.ImporteExento ?? 0)).toFixed(2);
        lines.push({ section: 'Percepción', tipo: a.TipoPercepcion ?? '', clave: a.Clave ?? '', concepto: a.Concepto ?? '', importe: total });
      } else if (el.localName === 'Deduccion') {
        lines.push({ section: 'Deducción', tipo: a.TipoDeduccion ?? '', clave: a.Clave ?? '', concepto: a.Concepto ?? '', importe: a.Importe ?? '' });
      } else if (el.localName === 'OtroPago') {
        lines.push({ section: 'Otro pago', tipo: a.TipoOtroPago ?? '', clave: a.Clave ?? '', concepto: a.Concepto ?? '', importe: a.Importe ?? '' });
      }
    }
  }
  return lines;
}
