import type { EntityManager } from '@cfdi/db';
import { CatalogIndex } from './catalog-index';
import { catalogVersion, loadCatalogIndex } from './load-catalog-index';
import type * as Catalog from './types';

export interface CatalogServiceOptions {
  /** A fresh EntityManager per use (e.g. `() => orm.em.fork()`). */
  em: () => EntityManager;
  /** How long a loaded index is trusted before `catalog_versions` is checked again. */
  recheckMs?: number;
}

/** What the API, the MCP tools and the CFDI validation call. */
export interface CatalogService {
  searchProducts(keyword: string | undefined, limit?: number): Promise<Catalog.ProductEntry[]>;
  searchUnits(keyword: string | undefined, limit?: number): Promise<Catalog.UnitEntry[]>;
  listUsosCfdi(): Promise<Catalog.UsoCfdiEntry[]>;
  listRegimenes(): Promise<Catalog.RegimenEntry[]>;
  listFormasPago(): Promise<Catalog.FormaPagoEntry[]>;
  /** c_Moneda's keys in force, each with its name (the console's currency choice). */
  listMonedas(): Promise<Catalog.FormaPagoEntry[]>;
  /** The index in use after making sure it is fresh. */
  index(): Promise<CatalogIndex>;
  /** Synchronous lookups against whatever index is loaded (the shipped small catalogs before the first load). */
  readonly lookup: Catalog.CatalogLookup;
  /** Reloads now if an import changed the catalogs; true when it reloaded. */
  refresh(): Promise<boolean>;
}

/**
 * Serves catalogs from an in-process index loaded from PostgreSQL on first use. Searches stay in memory;
 * at most once per `recheckMs` a request pays one tiny query on `catalog_versions` and, when an import
 * changed something, the index is rebuilt. Concurrent callers share one load.
 */
export function createCatalogService({ em, recheckMs = 5000 }: CatalogServiceOptions): CatalogService {
  let current = CatalogIndex.shipped();
  let loaded = false;
  let checkedAt = 0;
  let pending: Promise<boolean> | null = null;

  const reloadIfChanged = async (): Promise<boolean> => {
    const version = await catalogVersion(em());
    checkedAt = Date.now();
    if (loaded && version === current.version) return false;
    current = await loadCatalogIndex(em());
    loaded = true;
    return true;
  };
  const refresh = () => {
    pending ??= reloadIfChanged().finally(() => {
      pending = null;
    });
    return pending;
  };
  const index = async () => {
    if (!loaded || Date.now() - checkedAt > recheckMs) await refresh();
    return current;
  };

  return {
    searchProducts: async (keyword, limit) => (await index()).searchProducts(keyword, limit),
    searchUnits: async (keyword, limit) => (await index()).searchUnits(keyword, limit),
    listUsosCfdi: async () => (await index()).listUsosCfdi(),
    listRegimenes: async () => (await index()).listRegimenes(),
    listFormasPago: async () => (await index()).listFormasPago(),
    listMonedas: async () => (await index()).listMonedas(),
    index,
    lookup: {
      hasProductCode: (c) => current.lookup.hasProductCode(c),
      hasUnitCode: (c) => current.lookup.hasUnitCode(c),
      usoCfdi: (c) => current.lookup.usoCfdi(c),
      regimen: (c) => current.lookup.regimen(c),
      hasFormaPago: (c) => current.lookup.hasFormaPago(c),
      moneda: (c) => current.lookup.moneda(c),
      pais: (c) => current.lookup.pais(c),
      hasComercioExteriorKey: (catalog, c) => current.lookup.hasComercioExteriorKey(catalog, c),
      hasCartaPorteKey: (catalog, c) => current.lookup.hasCartaPorteKey(catalog, c),
    },
    refresh,
  };
}
