import type { CatalogSnapshot } from '../../src/catalog-index';
import { isSmallCatalog, type CatalogRow, type SmallCatalogName } from '../../src/definitions';
import type { CatalogData } from '../../src/source/catalog-data';

/** The snapshot loadCatalogIndex would read after importing `data`, built without a database. */
export function toSnapshot(data: readonly CatalogData[]): CatalogSnapshot {
  const rowsOf = (name: string) => data.find((d) => d.definition.name === name)?.rows ?? [];
  const small: Partial<Record<SmallCatalogName, CatalogRow[]>> = {};
  for (const { definition, rows } of data) if (isSmallCatalog(definition.name)) small[definition.name] = rows;
  return {
    version: 1,
    products: rowsOf('products').map((r) => ({
      clave: r.clave!,
      descripcion: r.descripcion!,
      palabrasSimilares: r.palabras_similares!,
      vigenciaDesde: r.vigencia_desde || null,
      vigenciaHasta: r.vigencia_hasta || null,
    })),
    units: rowsOf('units').map((r) => ({
      clave: r.clave!,
      nombre: r.nombre!,
      simbolo: r.simbolo || null,
      vigenciaDesde: r.vigencia_desde || null,
      vigenciaHasta: r.vigencia_hasta || null,
    })),
    small,
  };
}
