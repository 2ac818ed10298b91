import type { XmlNode } from '../cadena/tree';
import { kids } from '../cadena/tree';
import { NS } from '../xml/dom';
import { ensureSpace, field, MARGIN, printedAddress, sectionTitle, twoColumns, WIDTH } from './layout';

type Doc = PDFKit.PDFDocument;
type Attrs = (el: XmlNode | undefined) => Record<string, string>;

/** What the printed export shows of its Comercio Exterior 2.0 complement. */
export interface ComercioExteriorPrint {
  attrs: Record<string, string>;
  emisor?: Record<string, string>;
  receptor?: Record<string, string>;
  destinatarios: Array<{ attrs: Record<string, string>; domicilios: Array<Record<string, string>> }>;
  mercancias: Array<Record<string, string>>;
}

const C = NS.cce20;

export function readComercioExterior(el: XmlNode, attrs: Attrs): ComercioExteriorPrint {
  const domicilio = (parent: XmlNode | undefined) => (parent ? kids(parent, C, 'Domicilio')[0] : undefined);
  const emisor = kids(el, C, 'Emisor')[0];
  const receptor = kids(el, C, 'Receptor')[0];
  return {
    attrs: attrs(el),
    ...(domicilio(emisor) ? { emisor: attrs(domicilio(emisor)) } : {}),
    ...(domicilio(receptor) ? { receptor: attrs(domicilio(receptor)) } : {}),
    destinatarios: kids(el, C, 'Destinatario').map((d) => ({
      attrs: attrs(d),
      domicilios: kids(d, C, 'Domicilio').map((x) => attrs(x)),
    })),
    mercancias: kids(el, C, 'Mercancias').flatMap((m) => kids(m, C, 'Mercancia').map((x) => attrs(x))),
  };
}

export function comercioExteriorSection(doc: Doc, cce: ComercioExteriorPrint): void {
  const a = cce.attrs;
  sectionTitle(doc, 'Complemento de comercio exterior 2.0');
  twoColumns(
    doc,
    [
      ['Clave de pedimento', a.ClaveDePedimento],
      ['Incoterm', a.Incoterm],
      ['Certificado de origen', a.CertificadoOrigen === '1' ? `Sí, ${a.NumCertificadoOrigen ?? ''}` : 'No'],
      ['Exportador confiable', a.NumeroExportadorConfiable],
    ],
    [
      ['Tipo de cambio USD', a.TipoCambioUSD],
      ['Total USD', a.TotalUSD],
      ['Observaciones', a.Observaciones],
    ],
  );
  field(doc, 'Domicilio del emisor', printedAddress(cce.emisor), MARGIN, WIDTH);
  field(doc, 'Domicilio del receptor', printedAddress(cce.receptor), MARGIN, WIDTH);
  for (const d of cce.destinatarios)
    field(
      doc,
      `Destinatario${d.attrs.Nombre ? ` ${d.attrs.Nombre}` : ''}`,
      d.domicilios.map(printedAddress).join('; '),
      MARGIN,
      WIDTH,
    );
  for (const m of cce.mercancias) {
    ensureSpace(doc, 12);
    field(
      doc,
      `Mercancía ${m.NoIdentificacion}`,
      `fracción ${m.FraccionArancelaria ?? '-'}, ${m.CantidadAduana ?? '-'} (unidad aduana ${m.UnidadAduana ?? '-'}) × ${m.ValorUnitarioAduana ?? '-'} USD = ${m.ValorDolares} USD`,
      MARGIN,
      WIDTH,
    );
  }
}
