import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Orm } from '@cfdi/db';
import { importCatalogs } from '../src/import/import-catalogs';
import { readTsvDirectory } from '../src/source/read-tsv';
import { readWorkbook } from '../src/source/read-workbook';
import { readSource } from '../src/source/read-source';
import { CatalogSourceError } from '../src/source/source-error';
import type { CatalogData } from '../src/source/catalog-data';
import { satSheets, serial, writeWorkbook } from './helpers/sat-workbook';
import { satCatalogsDir } from './helpers/source-dirs';
import { openTestDatabase } from './helpers/test-database';

let dir: string;
let tsv: CatalogData[];
const rowsOf = (data: CatalogData[], name: string) => data.find((d) => d.definition.name === name)?.rows;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfdi-workbook-'));
  tsv = await readTsvDirectory(satCatalogsDir);
});

function writeSample(file: string): void {
  writeWorkbook(
    file,
    satSheets({
      usos: rowsOf(tsv, 'usos-cfdi')!,
      regimenes: rowsOf(tsv, 'regimenes')!,
      formasPago: rowsOf(tsv, 'formas-pago')!,
    }),
  );
}

describe.each(['xlsx', 'xls'])('a SAT workbook (.%s)', (ext) => {
  let file: string;
  beforeAll(() => {
    file = path.join(dir, `catCFDI_V_4_test.${ext}`);
    writeSample(file);
  });

  test('reads the catalogs it holds below the title rows, in the same form as the TSV files', async () => {
    const data = await readSource(file);
    expect(data.map((d) => d.definition.name).sort()).toEqual([
      'formas-pago',
      'products',
      'regimenes',
      'units',
      'usos-cfdi',
    ]);
    // Two header rows (Física/Moral), numeric keys, Sí/No/Opcional and date serials all round-trip.
    for (const name of ['usos-cfdi', 'regimenes', 'formas-pago'])
      expect(rowsOf(data, name)).toEqual(rowsOf(tsv, name));
    expect(rowsOf(data, 'products')![0]).toEqual({
      clave: '01010101',
      descripcion: 'No existe en el catálogo',
      palabras_similares: 'Público en general',
      incluir_iva: 'false',
      incluir_ieps: 'false',
      complemento: '',
      estimulo_franja_fronteriza: 'false',
      vigencia_desde: '2019-01-07',
      vigencia_hasta: '',
    });
    expect(rowsOf(data, 'products')!.find((r) => r.clave === '80111701')?.incluir_iva).toBe('true');
    expect(rowsOf(data, 'products')!.find((r) => r.clave === '15101506')?.vigencia_hasta).toBe('2020-01-15');
    expect(rowsOf(data, 'units')!.map((r) => [r.clave, r.simbolo])).toEqual([
      ['H87', ''],
      ['KGM', 'kg'],
      ['05', ''],
    ]);
  });
});

test('importing a workbook merges only its catalogs and is idempotent', async () => {
  const orm: Orm = await openTestDatabase('cfdi_catalogs_test_workbook');
  try {
    const file = path.join(dir, 'catCFDI_V_4_import.xlsx');
    writeSample(file);
    const first = await importCatalogs({ em: orm.em.fork(), source: file });
    expect(first.catalogs.find((c) => c.catalog === 'products')).toEqual({
      catalog: 'products',
      rows: 4,
      added: 4,
      changed: 0,
      removed: 0,
    });
    expect(first.catalogs.find((c) => c.catalog === 'usos-cfdi')).toMatchObject({ rows: 24, added: 24 });
    const again = await importCatalogs({ em: orm.em.fork(), source: file });
    expect(again.catalogs.every((c) => c.added + c.changed + c.removed === 0)).toBe(true);
    const unit = await orm.em.getKnex().raw("select clave, nombre from catalog_units where clave = '05'");
    expect(unit.rows).toEqual([{ clave: '05', nombre: 'Ascensor' }]);
  } finally {
    await orm.close();
  }
});

test('a workbook without the expected header says which column is missing', async () => {
  const file = path.join(dir, 'broken.xlsx');
  writeWorkbook(file, {
    c_RegimenFiscal: [
      ['Catálogo'],
      ['c_RegimenFiscal', 'Descripción', 'Física'],
      ['601', 'General', 'No', serial('2022-01-01')],
    ],
  });
  expect(() => readWorkbook(file)).toThrow(CatalogSourceError);
  expect(() => readWorkbook(file)).toThrow(/no column for moral/);
});

test('an empty sheet is refused rather than emptying its catalog', () => {
  const file = path.join(dir, 'empty.xlsx');
  writeWorkbook(file, { c_FormaPago: [['Catálogo'], ['c_FormaPago', 'Descripción']] });
  expect(() => readWorkbook(file)).toThrow(/no rows/);
});

test('a source that is neither a directory nor a workbook is refused', async () => {
  await expect(readSource(path.join(satCatalogsDir, 'README.md'))).rejects.toThrow(CatalogSourceError);
  await expect(readSource(path.join(dir, 'missing'))).rejects.toThrow(/does not exist/);
});
