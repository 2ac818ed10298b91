import { catalogDefinition, type CatalogRow, type SmallCatalogName } from './definitions';
import { SHIPPED_CATALOGS } from './shipped';
import { TextIndex, today, type IndexItem } from './search/text-index';
import type {
  CartaPorteCatalog,
  CatalogLookup,
  ComercioExteriorCatalog,
  FormaPagoEntry,
  ProductEntry,
  RegimenEntry,
  UnitEntry,
  UsoCfdiEntry,
} from './types';

export interface ProductRecord {
  clave: string;
  descripcion: string;
  palabrasSimilares: string;
  vigenciaDesde: string | null;
  vigenciaHasta: string | null;
}

export interface UnitRecord {
  clave: string;
  nombre: string;
  simbolo: string | null;
  vigenciaDesde: string | null;
  vigenciaHasta: string | null;
}

/** Everything an index is built from: what loadCatalogIndex reads from PostgreSQL. */
export interface CatalogSnapshot {
  /** Highest `catalog_versions.version` the data reflects; 0 before any import. */
  version: number;
  products: readonly ProductRecord[];
  units: readonly UnitRecord[];
  /** Small catalogs present in the database; the rest fall back to the shipped copies. */
  small: Partial<Record<SmallCatalogName, readonly CatalogRow[]>>;
}

export const SEARCH_LIMIT = { default: 20, max: 100 } as const;

/** Immutable, in-memory view of all catalogs: search, lists and the synchronous CFDI lookups. */
export class CatalogIndex {
  readonly version: number;
  readonly lookup: CatalogLookup;
  private readonly products: TextIndex<ProductEntry>;
  private readonly units: TextIndex<UnitEntry>;
  private readonly small: Readonly<Record<SmallCatalogName, readonly CatalogRow[]>>;
  private readonly usos: ReadonlyMap<string, CatalogRow>;
  private readonly regimenes: ReadonlyMap<string, CatalogRow>;
  private readonly formasPago: ReadonlyMap<string, CatalogRow>;
  private readonly monedas: ReadonlyMap<string, CatalogRow>;
  private readonly paises: ReadonlyMap<string, CatalogRow>;
  private readonly comExt: Readonly<Record<ComercioExteriorCatalog, ReadonlyMap<string, CatalogRow>>>;
  private readonly cartaPorte: Readonly<Record<CartaPorteCatalog, ReadonlyMap<string, CatalogRow>>>;

  constructor(snapshot: CatalogSnapshot) {
    this.version = snapshot.version;
    this.products = new TextIndex(snapshot.products.map(productItem));
    this.units = new TextIndex(snapshot.units.map(unitItem));
    this.small = sortedByKey({ ...SHIPPED_CATALOGS, ...snapshot.small });
    const byClave = (name: SmallCatalogName) => new Map(this.small[name].map((r) => [r.clave ?? '', r]));
    this.usos = byClave('usos-cfdi');
    this.regimenes = byClave('regimenes');
    this.formasPago = byClave('formas-pago');
    this.monedas = byClave('monedas');
    this.paises = byClave('paises');
    this.comExt = {
      incoterms: byClave('incoterms'),
      'unidades-aduana': byClave('unidades-aduana'),
      'fracciones-arancelarias': byClave('fracciones-arancelarias'),
    };
    this.cartaPorte = {
      'productos-carta-porte': byClave('productos-carta-porte'),
      'materiales-peligrosos': byClave('materiales-peligrosos'),
    };
    this.lookup = this.createLookup();
  }

  /** Only the shipped small catalogs: what a process has before it can read PostgreSQL. */
  static shipped(): CatalogIndex {
    return new CatalogIndex({ version: 0, products: [], units: [], small: {} });
  }

  get productCount(): number {
    return this.products.size;
  }

  get unitCount(): number {
    return this.units.size;
  }

  /** Ranked search (rules on TextIndex); only entries valid today unless `includeExpired`. */
  searchProducts(
    keyword?: string,
    limit: number = SEARCH_LIMIT.default,
    options: { includeExpired?: boolean } = {},
  ): ProductEntry[] {
    return this.products.search(keyword, { limit: clampLimit(limit), ...options });
  }

  searchUnits(
    keyword?: string,
    limit: number = SEARCH_LIMIT.default,
    options: { includeExpired?: boolean } = {},
  ): UnitEntry[] {
    return this.units.search(keyword, { limit: clampLimit(limit), ...options });
  }

  listUsosCfdi(): UsoCfdiEntry[] {
    return this.current('usos-cfdi').map((r) => ({
      clave: r.clave!,
      nombre: r.descripcion!,
      fisica: r.fisica === 'true',
      moral: r.moral === 'true',
    }));
  }

  listRegimenes(): RegimenEntry[] {
    return this.current('regimenes').map((r) => ({
      clave: r.clave!,
      nombre: r.descripcion!,
      fisica: r.fisica === 'true',
      moral: r.moral === 'true',
    }));
  }

  listFormasPago(): FormaPagoEntry[] {
    return this.current('formas-pago').map((r) => ({ clave: r.clave!, nombre: r.descripcion! }));
  }

  /** c_Moneda's keys in force with their names, as the key and name of a choice. */
  listMonedas(): FormaPagoEntry[] {
    return this.current('monedas').map((r) => ({ clave: r.clave!, nombre: r.descripcion! }));
  }

  /** Rows of any small catalog in canonical (TSV) form, currently valid ones unless `includeExpired`. */
  rows(catalog: SmallCatalogName, includeExpired = false): readonly CatalogRow[] {
    return includeExpired ? this.small[catalog] : this.current(catalog);
  }

  private current(catalog: SmallCatalogName): readonly CatalogRow[] {
    const on = today();
    return this.small[catalog].filter((r) => isValidRow(r, on));
  }

  private createLookup(): CatalogLookup {
    const valid = (row: CatalogRow | undefined) => (row && isValidRow(row, today()) ? row : undefined);
    return {
      hasProductCode: (clave) => this.products.has(clave),
      hasUnitCode: (clave) => this.units.has(clave),
      usoCfdi: (clave) => {
        const row = valid(this.usos.get(clave));
        return (
          row && {
            fisica: row.fisica === 'true',
            moral: row.moral === 'true',
            regimenesReceptor: row.regimenes_receptor ? row.regimenes_receptor.split(',') : [],
          }
        );
      },
      regimen: (clave) => {
        const row = valid(this.regimenes.get(clave));
        return row && { fisica: row.fisica === 'true', moral: row.moral === 'true' };
      },
      hasFormaPago: (clave) => valid(this.formasPago.get(clave)) !== undefined,
      moneda: (clave) => {
        const row = valid(this.monedas.get(clave));
        return (
          row && { decimales: Number(row.decimales || 2), variacion: Number(row.porcentaje_variacion || 0) }
        );
      },
      pais: (clave) => {
        const row = this.paises.get(clave);
        return row && { patronIdentidadTributaria: row.patron_identidad_tributaria ?? '' };
      },
      hasComercioExteriorKey: (catalog, clave) => valid(this.comExt[catalog].get(clave)) !== undefined,
      hasCartaPorteKey: (catalog, clave) => valid(this.cartaPorte[catalog].get(clave)) !== undefined,
    };
  }
}

/** Lists come out in key order whatever the source order was (TSV, workbook, database). */
function sortedByKey(
  catalogs: Record<SmallCatalogName, readonly CatalogRow[]>,
): Record<SmallCatalogName, readonly CatalogRow[]> {
  const sorted = {} as Record<SmallCatalogName, readonly CatalogRow[]>;
  for (const [name, rows] of Object.entries(catalogs) as [SmallCatalogName, readonly CatalogRow[]][]) {
    const key = catalogDefinition(name).key;
    sorted[name] = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return sorted;
}

function productItem(p: ProductRecord): IndexItem<ProductEntry> {
  return {
    key: p.clave,
    primary: p.descripcion,
    secondary: p.palabrasSimilares,
    validFrom: p.vigenciaDesde,
    validUntil: p.vigenciaHasta,
    value: { clave: p.clave, nombre: p.descripcion },
  };
}

/** Units have no synonyms; the symbol ('kg') plays that part. */
function unitItem(u: UnitRecord): IndexItem<UnitEntry> {
  return {
    key: u.clave,
    primary: u.nombre,
    secondary: u.simbolo ?? '',
    validFrom: u.vigenciaDesde,
    validUntil: u.vigenciaHasta,
    value: { clave: u.clave, nombre: u.nombre, simbolo: u.simbolo },
  };
}

/** Validity bounds are inclusive: an entry is usable on its vigencia_hasta date. */
function isValidRow(row: CatalogRow, on: string): boolean {
  return (
    (!row.vigencia_desde || row.vigencia_desde <= on) && (!row.vigencia_hasta || row.vigencia_hasta >= on)
  );
}

function clampLimit(limit: number): number {
  return Math.min(Math.max(Math.trunc(limit) || SEARCH_LIMIT.default, 1), SEARCH_LIMIT.max);
}
