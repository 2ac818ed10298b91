import type { XmlNode } from '../cadena/tree';
import { kids } from '../cadena/tree';
import { NS } from '../xml/dom';
import {
  endTableRow,
  ensureSpace,
  field,
  MARGIN,
  printedAddress,
  sectionTitle,
  tableHeader,
  twoColumns,
  WIDTH,
} from './layout';
import { CELL_FONT, CELL_SIZE, cellHeight, drawCell, type Align } from './table-cell';

type Doc = PDFKit.PDFDocument;
type Attrs = (el: XmlNode | undefined) => Record<string, string>;

/** What the printed CFDI shows of its Carta Porte 3.1 complement (a freight invoice's or a traslado's). */
export interface CartaPortePrint {
  attrs: Record<string, string>;
  ubicaciones: Array<{ attrs: Record<string, string>; domicilio?: Record<string, string> }>;
  mercancias: Record<string, string>;
  mercancia: Array<Record<string, string>>;
  /** Motor transport: the permit, the vehicle, its insurance and trailers (absent for other transports). */
  autotransporte?: {
    attrs: Record<string, string>;
    vehiculo: Record<string, string>;
    seguros: Record<string, string>;
    remolques: Array<Record<string, string>>;
  };
  figuras: Array<{ attrs: Record<string, string>; partes: string[] }>;
}

const C = NS.cartaporte31;

export function readCartaPorte(el: XmlNode, attrs: Attrs): CartaPortePrint {
  const first = (parent: XmlNode | undefined, name: string) =>
    parent ? kids(parent, C, name)[0] : undefined;
  const mercancias = first(el, 'Mercancias');
  const auto = first(mercancias, 'Autotransporte');
  return {
    attrs: attrs(el),
    ubicaciones: (first(el, 'Ubicaciones') ? kids(first(el, 'Ubicaciones')!, C, 'Ubicacion') : []).map(
      (u) => {
        const domicilio = first(u, 'Domicilio');
        return { attrs: attrs(u), ...(domicilio ? { domicilio: attrs(domicilio) } : {}) };
      },
    ),
    mercancias: attrs(mercancias),
    mercancia: mercancias ? kids(mercancias, C, 'Mercancia').map((m) => attrs(m)) : [],
    ...(auto
      ? {
          autotransporte: {
            attrs: attrs(auto),
            vehiculo: attrs(first(auto, 'IdentificacionVehicular')),
            seguros: attrs(first(auto, 'Seguros')),
            remolques: first(auto, 'Remolques')
              ? kids(first(auto, 'Remolques')!, C, 'Remolque').map((r) => attrs(r))
              : [],
          },
        }
      : {}),
    figuras: (first(el, 'FiguraTransporte')
      ? kids(first(el, 'FiguraTransporte')!, C, 'TiposFigura')
      : []
    ).map((f) => ({
      attrs: attrs(f),
      partes: kids(f, C, 'PartesTransporte').map((p) => p.attributes.get('ParteTransporte') ?? ''),
    })),
  };
}

/** c_FiguraTransporte as printed. */
const FIGURAS: Record<string, string> = {
  '01': 'Operador',
  '02': 'Propietario',
  '03': 'Arrendador',
  '04': 'Notificado',
  '05': 'Integrante de coordinados',
};

interface Column {
  title: string;
  width: number;
  align?: Align;
}

/** A table of text cells in the concept table's font, its header repeated on each new page. */
function table(doc: Doc, columns: Column[], rows: string[][]): void {
  ensureSpace(doc, 40);
  tableHeader(doc, columns);
  doc.font(CELL_FONT).fontSize(CELL_SIZE).fillColor('black');
  for (const cells of rows) {
    const height =
      Math.max(...columns.map((c, i) => (cells[i] ? cellHeight(doc, cells[i], c.width - 4) : 0))) + 4;
    if (doc.y + height > doc.page.height - MARGIN - 14) {
      doc.addPage();
      tableHeader(doc, columns);
      doc.font(CELL_FONT).fontSize(CELL_SIZE).fillColor('black');
    }
    const y = doc.y;
    let x = MARGIN;
    columns.forEach((c, i) => {
      if (cells[i]) drawCell(doc, cells[i], x + 2, y, c.width - 4, c.align ?? 'left');
      x += c.width;
    });
    endTableRow(doc, y, height);
  }
}

const STOPS: Column[] = [
  { title: 'Ubicación', width: 62 },
  { title: 'Remitente / destinatario', width: 150 },
  { title: 'Salida / llegada', width: 78 },
  { title: 'Distancia (km)', width: 54, align: 'right' },
  { title: 'Domicilio', width: 196 },
];

const GOODS: Column[] = [
  { title: 'Clave', width: 48 },
  { title: 'Descripción', width: 176 },
  { title: 'Cantidad', width: 46, align: 'right' },
  { title: 'Unidad', width: 40 },
  { title: 'Peso (kg)', width: 54, align: 'right' },
  { title: 'Material peligroso', width: 100 },
  { title: 'Valor', width: 76, align: 'right' },
];

/**
 * The Carta Porte 3.1 section: IdCCP and the complement's totals, the stops with their dates and distances, the goods
 * with their weights (and hazardous material), the vehicle with its permit, insurers and trailers, and the figures.
 */
export function cartaPorteSection(doc: Doc, cp: CartaPortePrint): void {
  const a = cp.attrs;
  sectionTitle(doc, `Complemento Carta Porte ${a.Version ?? ''}`.trim());
  twoColumns(
    doc,
    [
      ['IdCCP', a.IdCCP],
      ['Transporte internacional', a.TranspInternac],
      ['Distancia total recorrida', a.TotalDistRec === undefined ? undefined : `${a.TotalDistRec} km`],
    ],
    [
      [
        'Peso bruto total',
        cp.mercancias.PesoBrutoTotal === undefined
          ? undefined
          : `${cp.mercancias.PesoBrutoTotal} ${cp.mercancias.UnidadPeso === 'KGM' ? 'kg' : (cp.mercancias.UnidadPeso ?? '')}`.trim(),
      ],
      ['Número total de mercancías', cp.mercancias.NumTotalMercancias],
    ],
  );
  doc.moveDown(0.3);
  table(
    doc,
    STOPS,
    cp.ubicaciones.map(({ attrs: u, domicilio }) => [
      `${u.TipoUbicacion ?? ''}\n${u.IDUbicacion ?? ''}`,
      [u.RFCRemitenteDestinatario, u.NombreRemitenteDestinatario].filter(Boolean).join('\n'),
      (u.FechaHoraSalidaLlegada ?? '').replace('T', ' '),
      u.DistanciaRecorrida ?? '',
      printedAddress(domicilio),
    ]),
  );
  doc.moveDown(0.3);
  table(
    doc,
    GOODS,
    cp.mercancia.map((m) => [
      m.BienesTransp ?? '',
      [m.Descripcion, m.Dimensiones ? `Dimensiones: ${m.Dimensiones}` : undefined].filter(Boolean).join('\n'),
      m.Cantidad ?? '',
      [m.ClaveUnidad, m.Unidad].filter(Boolean).join(' '),
      m.PesoEnKg ?? '',
      m.MaterialPeligroso === 'Sí'
        ? `Sí, ${m.CveMaterialPeligroso ?? ''}${m.Embalaje ? `, embalaje ${m.Embalaje}` : ''}`
        : (m.MaterialPeligroso ?? ''),
      m.ValorMercancia ? `$${m.ValorMercancia} ${m.Moneda ?? ''}`.trim() : '',
    ]),
  );
  const auto = cp.autotransporte;
  if (auto) {
    const v = auto.vehiculo;
    const s = auto.seguros;
    const insurer = (who: string | undefined, policy: string | undefined) =>
      who ? `${who}, póliza ${policy ?? ''}` : undefined;
    ensureSpace(doc, 70);
    doc.moveDown(0.3);
    twoColumns(
      doc,
      [
        ['Permiso SCT', `${auto.attrs.PermSCT ?? ''} ${auto.attrs.NumPermisoSCT ?? ''}`.trim()],
        [
          'Vehículo',
          `${v.ConfigVehicular ?? ''}, placa ${v.PlacaVM ?? ''}, modelo ${v.AnioModeloVM ?? ''}, peso bruto vehicular ${v.PesoBrutoVehicular ?? ''} t`,
        ],
        [
          'Remolques',
          auto.remolques.length
            ? auto.remolques.map((r) => `${r.SubTipoRem} placa ${r.Placa}`).join('; ')
            : undefined,
        ],
      ],
      [
        ['Seguro de responsabilidad civil', insurer(s.AseguraRespCivil, s.PolizaRespCivil)],
        ['Seguro de medio ambiente', insurer(s.AseguraMedAmbiente, s.PolizaMedAmbiente)],
        ['Seguro de carga', insurer(s.AseguraCarga, s.PolizaCarga)],
        ['Prima del seguro', s.PrimaSeguro === undefined ? undefined : `$${s.PrimaSeguro}`],
      ],
    );
  }
  for (const { attrs: f, partes } of cp.figuras) {
    ensureSpace(doc, 12);
    field(
      doc,
      `Figura de transporte: ${FIGURAS[f.TipoFigura ?? ''] ?? f.TipoFigura} (${f.TipoFigura})`,
      [
        f.NombreFigura,
        f.RFCFigura ? `RFC ${f.RFCFigura}` : undefined,
        f.NumRegIdTribFigura
          ? `registro ${f.NumRegIdTribFigura} (${f.ResidenciaFiscalFigura ?? ''})`
          : undefined,
        f.NumLicencia ? `licencia ${f.NumLicencia}` : undefined,
        partes.length ? `partes ${partes.join(', ')}` : undefined,
      ]
        .filter(Boolean)
        .join(', '),
      MARGIN,
      WIDTH,
    );
  }
}
