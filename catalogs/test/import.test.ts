import type { Orm } from '@cfdi/db';
import { catalogVersion, loadCatalogIndex } from '../src/load-catalog-index';
import { createCatalogService } from '../src/catalog-service';
import { importCatalogs, type ImportProgress, type ImportResult } from '../src/import/import-catalogs';
import { formatSummary } from '../src/import/progress-reporter';
import { openTestDatabase } from './helpers/test-database';
import { satCatalogsDir, setField, tsvCopy } from './helpers/source-dirs';

let orm: Orm;
beforeAll(async () => {
  orm = await openTestDatabase('cfdi_catalogs_test_import');
});
afterAll(() => orm.close());

const counts = (result: ImportResult, catalog: string) => result.catalogs.find((c) => c.catalog === catalog);
const one = async <T>(sql: string, bindings: unknown[] = []) =>
  (await orm.em.getKnex().raw(sql, bindings as never[])).rows[0] as T;

test('the first import loads every catalog, products with their synonyms', async () => {
  const events: ImportProgress[] = [];
  const result = await importCatalogs({
    em: orm.em.fork(),
    source: satCatalogsDir,
    onProgress: (e) => events.push(e),
  });

  expect(counts(result, 'products')).toEqual({
    catalog: 'products',
    rows: 52514,
    added: 52514,
    changed: 0,
    removed: 0,
  });
  expect(counts(result, 'units')).toEqual({
    catalog: 'units',
    rows: 2418,
    added: 2418,
    changed: 0,
    removed: 0,
  });
  expect(counts(result, 'usos-cfdi')?.added).toBe(24);
  // The Comercio Exterior catalogs come from the SAT mirror's catComExt.xsd beside the TSV directory.
  expect(counts(result, 'incoterms')?.added).toBe(16);
  expect(counts(result, 'unidades-aduana')?.added).toBe(23);
  expect(counts(result, 'fracciones-arancelarias')?.added).toBe(26045);
  // The large Carta Porte catalogs come from catCartaPorte.xsd the same way.
  expect(counts(result, 'productos-carta-porte')?.added).toBe(48757);
  expect(counts(result, 'materiales-peligrosos')?.added).toBe(4686);
  expect(result.catalogs).toHaveLength(22);
  expect(formatSummary(result)).toMatch(
    /^Imported 22 catalogs in [\d.]+ s: 135031 added, 0 changed, 0 removed — .*products 52514 rows \(\+52514 ~0 -0\)/,
  );

  expect(
    await one(
      "select count(*)::int as n, count(*) filter (where palabras_similares <> '')::int as synonyms from catalog_products",
    ),
  ).toEqual({ n: 52514, synonyms: 12203 });
  expect(
    await one(
      "select palabras_similares, estimulo_franja_fronteriza, to_char(vigencia_desde, 'YYYY-MM-DD') as desde from catalog_products where clave = '01010101'",
    ),
  ).toEqual({
    palabras_similares: 'Público en general',
    estimulo_franja_fronteriza: false,
    desde: '2019-01-07',
  });
  expect(await one("select simbolo from catalog_units where clave = 'KGM'")).toEqual({ simbolo: 'kg' });
  expect(await one("select simbolo from catalog_units where clave = 'H87'")).toEqual({ simbolo: null });
  expect(
    await one(
      "select data->>'regimenes_receptor' as r from catalog_entries where catalog = 'usos-cfdi' and clave = 'CN01'",
    ),
  ).toEqual({ r: '605' });

  const products = events
    .filter(
      (e) => (e.phase === 'done' ? e.result.catalog : e.phase === 'read' ? null : e.catalog) === 'products',
    )
    .map((e) => e.phase);
  expect(products[0]).toBe('stage');
  expect(products.slice(-2)).toEqual(['merge', 'done'] as never);
});

test('re-importing the same data changes nothing and keeps the version', async () => {
  const before = await catalogVersion(orm.em.fork());
  const result = await importCatalogs({ em: orm.em.fork(), source: satCatalogsDir });
  for (const c of result.catalogs)
    expect({ catalog: c.catalog, added: c.added, changed: c.changed, removed: c.removed }).toEqual({
      catalog: c.catalog,
      added: 0,
      changed: 0,
      removed: 0,
    });
  expect(await catalogVersion(orm.em.fork())).toBe(before);
});

test('a source that would remove most of a catalog (a truncated file) imports nothing unless allowShrink says so', async () => {
  const before = await catalogVersion(orm.em.fork());
  const dir = await tsvCopy({ 'units.tsv': (lines) => lines.slice(0, 100) });
  await expect(importCatalogs({ em: orm.em.fork(), source: dir })).rejects.toThrow(
    /units: this source would remove 2318 of its 2418 keys/,
  );
  expect(await one('select count(*)::int as n from catalog_units')).toEqual({ n: 2418 });
  expect(await catalogVersion(orm.em.fork())).toBe(before);

  const allowed = await importCatalogs({ em: orm.em.fork(), source: dir, allowShrink: true });
  expect(counts(allowed, 'units')).toMatchObject({ rows: 100, removed: 2318 });
  // Back to the full catalog for the tests that follow.
  expect(counts(await importCatalogs({ em: orm.em.fork(), source: satCatalogsDir }), 'units')).toMatchObject({
    added: 2318,
    removed: 0,
  });
});

test('an edited source reports added, changed and removed rows, touches only its catalogs, and the service reloads', async () => {
  const service = createCatalogService({ em: () => orm.em.fork(), recheckMs: 0 });
  expect((await service.searchUnits('H87', 1))[0]).toEqual({ clave: 'H87', nombre: 'Pieza', simbolo: null });
  const dir = await tsvCopy({
    'units.tsv': (lines) => [
      ...setField(lines, 'H87', 1, 'Pieza suelta').filter((l) => !l.startsWith('KGM\t')),
      'ZZZ\tUnidad zyzzyva\tzz\t\t\t2022-01-01\t',
    ],
    'usos_cfdi.tsv': (lines) => lines,
  });

  const edited = await importCatalogs({ em: orm.em.fork(), source: dir });
  expect(edited.catalogs.map((c) => c.catalog).sort()).toEqual(['units', 'usos-cfdi']);
  expect(counts(edited, 'units')).toEqual({ catalog: 'units', rows: 2418, added: 1, changed: 1, removed: 1 });
  expect(counts(edited, 'usos-cfdi')).toMatchObject({ added: 0, changed: 0, removed: 0 });
  expect(await one('select count(*)::int as n from catalog_products')).toEqual({ n: 52514 });

  expect(await service.refresh()).toBe(true);
  expect(await service.searchUnits('zyzzyva')).toEqual([
    { clave: 'ZZZ', nombre: 'Unidad zyzzyva', simbolo: 'zz' },
  ]);
  expect(service.lookup.hasUnitCode('KGM')).toBe(false);
  expect(await service.refresh()).toBe(false);

  const restored = await importCatalogs({ em: orm.em.fork(), source: satCatalogsDir });
  expect(counts(restored, 'units')).toMatchObject({ added: 1, changed: 1, removed: 1 });
  expect(await service.refresh()).toBe(true);
  expect(service.lookup.hasUnitCode('KGM')).toBe(true);
});

test('the index loaded from PostgreSQL searches and looks up like the data', async () => {
  const index = await loadCatalogIndex(orm.em.fork());
  expect(index.productCount).toBe(52514);
  expect(index.searchProducts('tornillo', 1)).toEqual([{ clave: '31161500', nombre: 'Tornillos' }]);
  expect(index.searchUnits('kilogramo', 1)).toEqual([{ clave: 'KGM', nombre: 'Kilogramo', simbolo: 'kg' }]);
  expect(index.lookup.usoCfdi('G03')).toEqual({
    fisica: true,
    moral: true,
    regimenesReceptor: ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'],
  });
});
