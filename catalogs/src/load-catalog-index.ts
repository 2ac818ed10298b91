import type { EntityManager } from '@cfdi/db';
import type { Knex } from '@mikro-orm/postgresql';
import { isSmallCatalog, type CatalogName, type CatalogRow, type SmallCatalogName } from './definitions';
import { CatalogIndex, type CatalogSnapshot, type ProductRecord, type UnitRecord } from './catalog-index';

/** The version the imported data has reached: one index-only read, cheap enough to poll. */
export async function catalogVersion(em: EntityManager): Promise<number> {
  const result = await em
    .getKnex()
    .raw('select coalesce(max(version), 0)::int as version from catalog_versions');
  return (result.rows[0] as { version: number }).version;
}

/** Reads all catalogs from PostgreSQL into a new in-memory index (~0.5 s for the full SAT data). */
export async function loadCatalogIndex(em: EntityManager): Promise<CatalogIndex> {
  return new CatalogIndex(await readSnapshot(em));
}

export async function readSnapshot(em: EntityManager): Promise<CatalogSnapshot> {
  // One snapshot for all reads, so the version matches the rows even while an import commits.
  return em.getKnex().transaction(async (trx) => {
    await trx.raw('set transaction isolation level repeatable read, read only');
    const version = (await trx.raw('select coalesce(max(version), 0)::int as version from catalog_versions'))
      .rows[0].version as number;
    const products = await rows<ProductRecord>(
      trx,
      `
      select clave, descripcion, palabras_similares as "palabrasSimilares",
             to_char(vigencia_desde, 'YYYY-MM-DD') as "vigenciaDesde", to_char(vigencia_hasta, 'YYYY-MM-DD') as "vigenciaHasta"
      from catalog_products`,
    );
    const units = await rows<UnitRecord>(
      trx,
      `
      select clave, nombre, simbolo,
             to_char(vigencia_desde, 'YYYY-MM-DD') as "vigenciaDesde", to_char(vigencia_hasta, 'YYYY-MM-DD') as "vigenciaHasta"
      from catalog_units`,
    );
    const entries = await rows<{ catalog: CatalogName; data: CatalogRow }>(
      trx,
      'select catalog, data from catalog_entries order by catalog, clave',
    );
    const small: Partial<Record<SmallCatalogName, CatalogRow[]>> = {};
    for (const { catalog, data } of entries) {
      if (isSmallCatalog(catalog)) (small[catalog] ??= []).push(data);
    }
    return { version, products, units, small };
  });
}

async function rows<T>(trx: Knex.Transaction, sql: string): Promise<T[]> {
  return (await trx.raw(sql)).rows as T[];
}
