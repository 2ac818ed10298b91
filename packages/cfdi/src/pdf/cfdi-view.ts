import { winAnsi } from './win-ansi';
import { parseTree } from '../cadena/fast-xml';
import { kids, walk, type XmlNode } from '../cadena/tree';
import { NS } from '../xml/dom';
import { parseTfd, tfdCadena, type Tfd } from '../tfd/tfd';
import { verificationUrlFromTree } from '../qr/verification-url-from-xml';
import { readNomina, type NominaPrint } from './nomina-view';
import { readComercioExterior, type ComercioExteriorPrint } from './comercio-exterior-section';
import { readCartaPorte, type CartaPortePrint } from './carta-porte-section';

/** Everything the printed representation shows, read from the stamped XML (the XML is the truth). */
export interface CfdiView {
  comprobante: Record<string, string>;
  emisor: Record<string, string>;
  receptor: Record<string, string>;
  informacionGlobal?: Record<string, string>;
  relacionados: Array<{ tipoRelacion: string; uuids: string[] }>;
  conceptos: Array<{
    attrs: Record<string, string>;
    pedimentos: string[];
    taxes: Array<Record<string, string>>;
  }>;
  traslados: Array<Record<string, string>>;
  retenciones: Array<Record<string, string>>;
  impuestos: Record<string, string>;
  /** Pagos 2.0: each Pago with its taxes (TrasladoP/RetencionP), each DoctoRelacionado with its own, and Totales. */
  pagos: Array<{
    pago: Record<string, string>;
    taxes: Array<Record<string, string>>;
    doctos: Array<{ attrs: Record<string, string>; taxes: Array<Record<string, string>> }>;
  }>;
  pagosTotales?: Record<string, string>;
  nomina?: NominaPrint;
  comercioExterior?: ComercioExteriorPrint;
  cartaPorte?: CartaPortePrint;
  /** The SAT's stamp; null on a draft's preview (an unsealed, unstamped Comprobante). */
  stamp: { tfd: Tfd; tfdCadena: string; qrUrl: string } | null;
}

function attrs(el: XmlNode | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!el) return out;
  for (const [name, value] of el.attributes) {
    if (!name.startsWith('xmlns') && !name.startsWith('xsi:')) out[name] = winAnsi(value);
  }
  return out;
}

export function readCfdi(xml: string, options: { unstamped?: boolean } = {}): CfdiView {
  // The cadena's reader (several times faster than xmldom); the TFD, its cadena and the QR URL come from it too.
  const root = parseTree(xml);
  const tfd = options.unstamped ? null : parseTfd(root);
  if (!tfd && !options.unstamped)
    throw new Error('renderPdf: the document is not stamped (no TimbreFiscalDigital)');
  const C = NS.cfdi;
  const imp = kids(root, C, 'Impuestos')[0];
  const complemento = kids(root, C, 'Complemento')[0];
  const pagos = complemento ? kids(complemento, NS.pago20, 'Pagos')[0] : undefined;
  const nomina = complemento ? kids(complemento, NS.nomina12, 'Nomina')[0] : undefined;
  const cce = complemento ? kids(complemento, NS.cce20, 'ComercioExterior')[0] : undefined;
  const cartaPorte = complemento ? kids(complemento, NS.cartaporte31, 'CartaPorte')[0] : undefined;
  return {
    comprobante: attrs(root),
    emisor: attrs(kids(root, C, 'Emisor')[0]),
    receptor: attrs(kids(root, C, 'Receptor')[0]),
    ...(kids(root, C, 'InformacionGlobal')[0]
      ? { informacionGlobal: attrs(kids(root, C, 'InformacionGlobal')[0]) }
      : {}),
    relacionados: kids(root, C, 'CfdiRelacionados').map((r) => ({
      tipoRelacion: r.attributes.get('TipoRelacion') ?? '',
      uuids: kids(r, C, 'CfdiRelacionado').map((c) => c.attributes.get('UUID') ?? ''),
    })),
    conceptos: walk(root, C, 'Conceptos', 'Concepto').map((c) => ({
      attrs: attrs(c),
      pedimentos: kids(c, C, 'InformacionAduanera').map((a) => a.attributes.get('NumeroPedimento') ?? ''),
      taxes: [
        ...walk(c, C, 'Impuestos', 'Traslados', 'Traslado'),
        ...walk(c, C, 'Impuestos', 'Retenciones', 'Retencion'),
      ].map(attrs),
    })),
    traslados: imp ? walk(imp, C, 'Traslados', 'Traslado').map(attrs) : [],
    retenciones: imp ? walk(imp, C, 'Retenciones', 'Retencion').map(attrs) : [],
    impuestos: attrs(imp),
    pagos: pagos
      ? kids(pagos, NS.pago20, 'Pago').map((p) => ({
          pago: attrs(p),
          taxes: [
            ...walk(p, NS.pago20, 'ImpuestosP', 'TrasladosP', 'TrasladoP'),
            ...walk(p, NS.pago20, 'ImpuestosP', 'RetencionesP', 'RetencionP'),
          ].map(attrs),
          doctos: kids(p, NS.pago20, 'DoctoRelacionado').map((d) => ({
            attrs: attrs(d),
            taxes: [
              ...walk(d, NS.pago20, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR'),
              ...walk(d, NS.pago20, 'ImpuestosDR', 'RetencionesDR', 'RetencionDR'),
            ].map(attrs),
          })),
        }))
      : [],
    ...(pagos && kids(pagos, NS.pago20, 'Totales')[0]
      ? { pagosTotales: attrs(kids(pagos, NS.pago20, 'Totales')[0]) }
      : {}),
    ...(nomina ? { nomina: readNomina(nomina, attrs) } : {}),
    ...(cce ? { comercioExterior: readComercioExterior(cce, attrs) } : {}),
    ...(cartaPorte ? { cartaPorte: readCartaPorte(cartaPorte, attrs) } : {}),
    stamp: tfd ? { tfd, tfdCadena: tfdCadena(tfd), qrUrl: verificationUrlFromTree(root, tfd.uuid) } : null,
  };
}
