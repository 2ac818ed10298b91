import type { CatalogDefinition, CatalogRow } from '../definitions';

/** Where and how one catalog is stored: the table, its key and the typed record for each row. */
export interface TableTarget {
  table: string;
  keyColumns: readonly string[];
  /** Every column with its PostgreSQL type, in table order. */
  columns: ReadonlyArray<{ name: string; type: string }>;
  /** Restricts the merge to this catalog's rows when the table is shared. */
  scope?: { column: string; value: string };
  toRecord(row: CatalogRow, key: string): Record<string, unknown>;
}

const bool = (value: string | undefined) => value === 'true';
const dateOrNull = (value: string | undefined) => value || null;

const PRODUCTS: TableTarget = {
  table: 'catalog_products',
  keyColumns: ['clave'],
  columns: [
    { name: 'clave', type: 'text' },
    { name: 'descripcion', type: 'text' },
    { name: 'palabras_similares', type: 'text' },
    { name: 'incluir_iva', type: 'boolean' },
    { name: 'incluir_ieps', type: 'boolean' },
    { name: 'complemento', type: 'text' },
    { name: 'estimulo_franja_fronteriza', type: 'boolean' },
    { name: 'vigencia_desde', type: 'date' },
    { name: 'vigencia_hasta', type: 'date' },
  ],
  toRecord: (r) => ({
    clave: r.clave,
    descripcion: r.descripcion,
    palabras_similares: r.palabras_similares ?? '',
    incluir_iva: bool(r.incluir_iva),
    incluir_ieps: bool(r.incluir_ieps),
    complemento: r.complemento ?? '',
    estimulo_franja_fronteriza: bool(r.estimulo_franja_fronteriza),
    vigencia_desde: dateOrNull(r.vigencia_desde),
    vigencia_hasta: dateOrNull(r.vigencia_hasta),
  }),
};

const UNITS: TableTarget = {
  table: 'catalog_units',
  keyColumns: ['clave'],
  columns: [
    { name: 'clave', type: 'text' },
    { name: 'nombre', type: 'text' },
    { name: 'simbolo', type: 'text' },
    { name: 'descripcion', type: 'text' },
    { name: 'notas', type: 'text' },
    { name: 'vigencia_desde', type: 'date' },
    { name: 'vigencia_hasta', type: 'date' },
  ],
  toRecord: (r) => ({
    clave: r.clave,
    nombre: r.nombre,
    simbolo: r.simbolo || null,
    descripcion: r.descripcion ?? '',
    notas: r.notas ?? '',
    vigencia_desde: dateOrNull(r.vigencia_desde),
    vigencia_hasta: dateOrNull(r.vigencia_hasta),
  }),
};

/** Small catalogs keep the canonical row as jsonb: one table serves them all and their shapes differ. */
function entries(catalog: string): TableTarget {
  return {
    table: 'catalog_entries',
    keyColumns: ['catalog', 'clave'],
    columns: [
      { name: 'catalog', type: 'text' },
      { name: 'clave', type: 'text' },
      { name: 'data', type: 'jsonb' },
    ],
    scope: { column: 'catalog', value: catalog },
    toRecord: (row, key) => ({ catalog, clave: key, data: row }),
  };
}

export function tableTarget(definition: CatalogDefinition): TableTarget {
  if (definition.name === 'products') return PRODUCTS;
  if (definition.name === 'units') return UNITS;
  return entries(definition.name);
}
