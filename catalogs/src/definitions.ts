/**
 * What each SAT catalog looks like in both sources: the TSV files (column names are the canonical row
 * keys used everywhere in this package) and the official `catCFDI_V_4_*.xls(x)` workbook (sheet name and
 * a matcher for each column's header, applied to the header text folded to lower case without accents).
 */

/** One catalog row with the TSV column names; booleans are 'true'/'false', dates ISO or ''. */
export type CatalogRow = Record<string, string>;

/** How a workbook cell becomes a canonical string. TSV values are already canonical. */
export type CellKind =
  | 'text'
  | 'date'
  /** SAT 'Sí' (or 1) → true; 'No', 'Opcional', 0 → false. */
  | 'yes'
  /** SAT 'No' → false; 'Sí' and 'Opcional' → true (the formas de pago "permite" columns). */
  | 'not-no'
  /** SAT 'No' → '', 'Opcional' → '.*', otherwise the regular expression verbatim. */
  | 'pattern'
  /** A list of codes separated by commas and/or spaces → comma-separated without spaces. */
  | 'codes'
  | 'decimal6';

export interface ColumnSpec {
  name: string;
  header: RegExp;
  kind?: CellKind;
  /** Numeric keys lose their leading zeros in a spreadsheet; pad them back to this width. */
  pad?: number;
  /** Optional columns become '' when the workbook does not have them. */
  optional?: boolean;
}

export const CATALOG_NAMES = [
  'products',
  'units',
  'usos-cfdi',
  'regimenes',
  'formas-pago',
  'metodos-pago',
  'monedas',
  'objetos-impuesto',
  'exportaciones',
  'periodicidades',
  'meses',
  'tipos-relacion',
  'impuestos',
  'tasas-o-cuotas',
  'tipos-comprobante',
  'tipos-factor',
  'paises',
  'incoterms',
  'unidades-aduana',
  'fracciones-arancelarias',
  'productos-carta-porte',
  'materiales-peligrosos',
] as const;
export type CatalogName = (typeof CATALOG_NAMES)[number];

/** The catalogs that ship inside the package; the rest (products, units) exist only after an import. */
export type SmallCatalogName = Exclude<CatalogName, 'products' | 'units'>;

export interface CatalogDefinition {
  name: CatalogName;
  file: string;
  sheet: string;
  columns: readonly ColumnSpec[];
  /** The row's identity within its catalog (c_TasaOCuota has no key column, so it is composed). */
  key(row: CatalogRow): string;
}

const DESDE: ColumnSpec = {
  name: 'vigencia_desde',
  header: /fecha( de)? ?inicio/,
  kind: 'date',
  optional: true,
};
const HASTA: ColumnSpec = {
  name: 'vigencia_hasta',
  header: /fecha( de)? ?fin/,
  kind: 'date',
  optional: true,
};
const DESCRIPCION: ColumnSpec = { name: 'descripcion', header: /^descripcion$/ };
const byClave = (row: CatalogRow) => row.clave ?? '';

/** A catalog with just key, description and validity dates. */
function simple(name: CatalogName, file: string, sheet: string, pad?: number): CatalogDefinition {
  const clave: ColumnSpec = { name: 'clave', header: new RegExp(`^${sheet.toLowerCase()}$`), pad };
  return { name, file, sheet, columns: [clave, DESCRIPCION, DESDE, HASTA], key: byClave };
}

/** The Comercio Exterior catalogs come from the SAT's catComExt.xsd (keys only: the schema has no descriptions). */
export const COMEXT_XSD = 'catComExt.xsd';

/** The Carta Porte catalogs the engine does not carry itself come from the SAT's catCartaPorte.xsd (keys only). */
export const CARTA_PORTE_XSD = 'catCartaPorte.xsd';

/** A catalog of a SAT catalog schema: `sheet` is its xs:simpleType (and workbook sheet) name. */
function comExt(name: CatalogName, type: string, file = COMEXT_XSD): CatalogDefinition {
  return {
    name,
    file,
    sheet: type,
    columns: [{ name: 'clave', header: new RegExp(`^${type.toLowerCase()}$`) }],
    key: byClave,
  };
}

export const CATALOGS: readonly CatalogDefinition[] = [
  {
    name: 'products',
    file: 'products.tsv',
    sheet: 'c_ClaveProdServ',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_claveprodserv$/, pad: 8 },
      DESCRIPCION,
      { name: 'palabras_similares', header: /palabras similares/, optional: true },
      { name: 'incluir_iva', header: /incluir iva/, kind: 'yes' },
      { name: 'incluir_ieps', header: /incluir ieps/, kind: 'yes' },
      { name: 'complemento', header: /complemento/, optional: true },
      { name: 'estimulo_franja_fronteriza', header: /franja/, kind: 'yes', optional: true },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'units',
    file: 'units.tsv',
    sheet: 'c_ClaveUnidad',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_claveunidad$/, pad: 2 },
      { name: 'nombre', header: /^nombre$/ },
      { name: 'simbolo', header: /^simbolo$/, optional: true },
      { name: 'descripcion', header: /^descripcion$/, optional: true },
      { name: 'notas', header: /^nota/, optional: true },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'usos-cfdi',
    file: 'usos_cfdi.tsv',
    sheet: 'c_UsoCFDI',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_usocfdi$/ },
      DESCRIPCION,
      // The workbook puts "Física"/"Moral" in a second header row under "Aplica para tipo persona".
      { name: 'fisica', header: /fisica/, kind: 'yes' },
      { name: 'moral', header: /moral/, kind: 'yes' },
      { name: 'regimenes_receptor', header: /regimen/, kind: 'codes' },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'regimenes',
    file: 'regimenes.tsv',
    sheet: 'c_RegimenFiscal',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_regimenfiscal$/ },
      DESCRIPCION,
      { name: 'fisica', header: /fisica/, kind: 'yes' },
      { name: 'moral', header: /moral/, kind: 'yes' },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'formas-pago',
    file: 'formas_pago.tsv',
    sheet: 'c_FormaPago',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_formapago$/, pad: 2 },
      DESCRIPCION,
      { name: 'bancarizado', header: /^bancarizado/, kind: 'yes', optional: true },
      { name: 'requiere_numero_operacion', header: /numero de operacion/, kind: 'yes', optional: true },
      { name: 'permite_rfc_cta_ordenante', header: /^rfc .*ordenante/, kind: 'not-no', optional: true },
      { name: 'permite_cta_ordenante', header: /^cuenta ordenante/, kind: 'not-no', optional: true },
      { name: 'patron_cta_ordenante', header: /^patron .*ordenante/, kind: 'pattern', optional: true },
      { name: 'permite_rfc_cta_beneficiario', header: /^rfc .*benef/, kind: 'not-no', optional: true },
      { name: 'permite_cta_beneficiario', header: /^cuenta de ben/, kind: 'not-no', optional: true },
      { name: 'patron_cta_beneficiario', header: /^patron .*benef/, kind: 'pattern', optional: true },
      { name: 'permite_tipo_cadena_pago', header: /tipo cadena/, kind: 'not-no', optional: true },
      { name: 'permite_nombre_banco_extranjero', header: /nombre del banco/, kind: 'not-no', optional: true },
      DESDE,
      HASTA,
    ],
  },
  simple('metodos-pago', 'metodos_pago.tsv', 'c_MetodoPago'),
  {
    name: 'monedas',
    file: 'monedas.tsv',
    sheet: 'c_Moneda',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_moneda$/ },
      DESCRIPCION,
      { name: 'decimales', header: /^decimales/, optional: true },
      { name: 'porcentaje_variacion', header: /porcentaje/, optional: true },
      DESDE,
      HASTA,
    ],
  },
  simple('objetos-impuesto', 'objetos_impuesto.tsv', 'c_ObjetoImp', 2),
  simple('exportaciones', 'exportaciones.tsv', 'c_Exportacion', 2),
  simple('periodicidades', 'periodicidades.tsv', 'c_Periodicidad', 2),
  simple('meses', 'meses.tsv', 'c_Meses', 2),
  simple('tipos-relacion', 'tipos_relacion.tsv', 'c_TipoRelacion', 2),
  {
    name: 'impuestos',
    file: 'impuestos.tsv',
    sheet: 'c_Impuesto',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_impuesto$/, pad: 3 },
      DESCRIPCION,
      { name: 'retencion', header: /^retencion/, kind: 'yes' },
      { name: 'traslado', header: /^traslado/, kind: 'yes' },
      { name: 'ambito', header: /local o federal|ambito/, optional: true },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'tasas-o-cuotas',
    file: 'tasas_o_cuotas.tsv',
    sheet: 'c_TasaOCuota',
    key: (r) => [r.impuesto, r.factor, r.rango_o_fijo, r.valor_minimo, r.valor_maximo].join('|'),
    columns: [
      { name: 'rango_o_fijo', header: /^rango o fijo$/ },
      // "Valor mínimo"/"Valor máximo" sit in a second header row under "c_TasaOCuota".
      { name: 'valor_minimo', header: /minimo/, kind: 'decimal6' },
      { name: 'valor_maximo', header: /maximo/, kind: 'decimal6' },
      { name: 'impuesto', header: /^impuesto$/ },
      { name: 'factor', header: /^factor$/ },
      { name: 'traslado', header: /^traslado$/, kind: 'yes' },
      { name: 'retencion', header: /^retencion$/, kind: 'yes' },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'tipos-comprobante',
    file: 'tipos_comprobante.tsv',
    sheet: 'c_TipoDeComprobante',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_tipodecomprobante$/ },
      DESCRIPCION,
      { name: 'valor_maximo', header: /valor maximo/, optional: true },
      DESDE,
      HASTA,
    ],
  },
  {
    name: 'tipos-factor',
    file: 'tipos_factor.tsv',
    sheet: 'c_TipoFactor',
    key: byClave,
    columns: [{ name: 'clave', header: /^c_tipofactor$/ }, DESDE, HASTA],
  },
  {
    name: 'paises',
    file: 'paises.tsv',
    sheet: 'c_Pais',
    key: byClave,
    columns: [
      { name: 'clave', header: /^c_pais$/ },
      DESCRIPCION,
      { name: 'patron_codigo_postal', header: /codigo postal/, optional: true },
      { name: 'patron_identidad_tributaria', header: /^formato .*identidad tributaria/, optional: true },
      { name: 'validacion_identidad_tributaria', header: /^validacion/, optional: true },
      { name: 'agrupaciones', header: /agrupacion/, optional: true },
    ],
  },
  comExt('incoterms', 'c_INCOTERM'),
  comExt('unidades-aduana', 'c_UnidadAduana'),
  comExt('fracciones-arancelarias', 'c_FraccionArancelaria'),
  comExt('productos-carta-porte', 'c_ClaveProdServCP', CARTA_PORTE_XSD),
  comExt('materiales-peligrosos', 'c_MaterialPeligroso', CARTA_PORTE_XSD),
];

/** The catalogs too large to ship in catalogs/data: they exist only after an import, like products and units. */
export const IMPORT_ONLY_SMALL: readonly CatalogName[] = [
  'fracciones-arancelarias',
  'productos-carta-porte',
  'materiales-peligrosos',
];

export function catalogDefinition(name: CatalogName): CatalogDefinition {
  const found = CATALOGS.find((c) => c.name === name);
  if (!found) throw new Error(`unknown catalog ${name}`);
  return found;
}

export function isSmallCatalog(name: CatalogName): name is SmallCatalogName {
  return name !== 'products' && name !== 'units';
}
