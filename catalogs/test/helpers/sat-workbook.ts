import * as XLSX from 'xlsx';
import type { CatalogRow } from '../../src/definitions';

type Cell = string | number;

/** Excel's serial day number for an ISO date (1900 date system), as the SAT workbook stores dates. */
export function serial(iso: string): Cell {
  if (!iso) return '';
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000) + 25_569;
}

const si = (v: string | undefined) => (v === 'true' ? 'Sí' : 'No');
const title = (name: string): Cell[][] => [[`Catálogo ${name}`], [], ['Versión', 'Revisión'], []];

/** Sheets laid out like catCFDI_V_4: title rows, then SAT's header row(s), then data in SAT notation. */
export function satSheets(tsv: {
  usos: CatalogRow[];
  regimenes: CatalogRow[];
  formasPago: CatalogRow[];
}): Record<string, Cell[][]> {
  const dates = (r: CatalogRow) => [serial(r.vigencia_desde!), serial(r.vigencia_hasta!)];
  return {
    c_ClaveProdServ: [
      ...title('c_ClaveProdServ'),
      [
        'c_ClaveProdServ',
        'Descripción',
        'Incluir IVA trasladado',
        'Incluir IEPS trasladado',
        'Complemento que debe incluir',
        'FechaInicioVigencia',
        'FechaFinVigencia',
        'Estímulo Franja Fronteriza',
        'Palabras similares',
      ],
      // Spreadsheets drop leading zeros from numeric keys; the reader pads them back.
      [
        1010101,
        'No existe en el catálogo',
        'Opcional',
        'Opcional',
        '',
        serial('2019-01-07'),
        '',
        0,
        'Público en general',
      ],
      [84111506, 'Servicios de facturación', 'Opcional', 'Opcional', '', serial('2019-01-07'), '', 1, ''],
      [80111701, 'Servicios de personal temporal', 'Sí', 'Opcional', '', serial('2019-01-07'), '', 1, ''],
      [15101506, 'Gasolina', 'Opcional', 'Opcional', '', serial('2019-01-07'), serial('2020-01-15'), 1, ''],
    ],
    c_ClaveUnidad: [
      ...title('c_ClaveUnidad'),
      [
        'c_ClaveUnidad',
        'Nombre',
        'Descripción',
        'Nota',
        'Fecha de inicio de vigencia',
        'Fecha de fin de vigencia',
        'Símbolo',
      ],
      ['H87', 'Pieza', 'Unidad de conteo.', '', serial('2022-01-01'), '', ''],
      ['KGM', 'Kilogramo', 'Una unidad de masa igual a mil gramos.', '', serial('2022-01-01'), '', 'kg'],
      [5, 'Ascensor', '', 'Retenida.', serial('2022-01-01'), '', ''],
    ],
    c_UsoCFDI: [
      ...title('c_UsoCFDI'),
      [
        'c_UsoCFDI',
        'Descripción',
        'Aplica para tipo persona',
        '',
        'Fecha inicio de vigencia',
        'Fecha fin de vigencia',
        'Régimen Fiscal Receptor',
      ],
      ['', '', 'Física', 'Moral'],
      ...tsv.usos.map((r) => [
        r.clave!,
        r.descripcion!,
        si(r.fisica),
        si(r.moral),
        ...dates(r),
        r.regimenes_receptor!.split(',').join(', '),
      ]),
    ],
    c_RegimenFiscal: [
      ...title('c_RegimenFiscal'),
      [],
      [
        'c_RegimenFiscal',
        'Descripción',
        'Física',
        'Moral',
        'Fecha de inicio de vigencia',
        'Fecha de fin de vigencia',
      ],
      ...tsv.regimenes.map((r) => [Number(r.clave), r.descripcion!, si(r.fisica), si(r.moral), ...dates(r)]),
    ],
    c_FormaPago: [
      ...title('c_FormaPago'),
      [
        'c_FormaPago',
        'Descripción',
        'Bancarizado',
        'Número de operación',
        'RFC del Emisor de la cuenta ordenante',
        'Cuenta Ordenante',
        'Patrón para cuenta ordenante',
        'RFC del Emisor Cuenta de Beneficiario',
        'Cuenta de Benenficiario',
        'Patrón para cuenta Beneficiaria',
        'Tipo Cadena Pago',
        'Nombre del Banco emisor de la cuenta ordenante en caso de extranjero',
        'Fecha inicio de vigencia',
        'Fecha fin de vigencia',
      ],
      ...tsv.formasPago.map((r) => [
        Number(r.clave),
        r.descripcion!,
        si(r.bancarizado),
        r.requiere_numero_operacion === 'true' ? 'Sí' : 'Opcional',
        permite(r.permite_rfc_cta_ordenante),
        permite(r.permite_cta_ordenante),
        pattern(r.patron_cta_ordenante!),
        permite(r.permite_rfc_cta_beneficiario),
        permite(r.permite_cta_beneficiario),
        pattern(r.patron_cta_beneficiario!),
        permite(r.permite_tipo_cadena_pago),
        permite(r.permite_nombre_banco_extranjero),
        ...dates(r),
      ]),
    ],
    // Sheets the importer does not know are ignored.
    c_CodigoPostal_Parte_1: [
      ['c_CodigoPostal', 'c_Estado'],
      ['20000', 'AGU'],
    ],
  };
}

const permite = (v: string | undefined) => (v === 'true' ? 'Opcional' : 'No');
const pattern = (v: string) => (v === '' ? 'No' : v === '.*' ? 'Opcional' : v);

export function writeWorkbook(file: string, sheets: Record<string, Cell[][]>): void {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  XLSX.writeFile(book, file);
}
