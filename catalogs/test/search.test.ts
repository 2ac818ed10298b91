import { CatalogIndex } from '../src/catalog-index';
import { readTsvDirectory } from '../src/source/read-tsv';
import { satCatalogsDir } from './helpers/source-dirs';
import { toSnapshot } from './helpers/tsv-snapshot';

// Built from the TSV files without a database: the same snapshot loadCatalogIndex reads after an import.
let index: CatalogIndex;
beforeAll(async () => {
  index = new CatalogIndex(toSnapshot(await readTsvDirectory(satCatalogsDir)));
});

const claves = (entries: { clave: string }[]) => entries.map((e) => e.clave);

describe('products', () => {
  test('tornillo: the Tornillos class first, then screws', () => {
    const results = index.searchProducts('tornillo');
    expect(results[0]).toEqual({ clave: '31161500', nombre: 'Tornillos' });
    expect(claves(results.slice(0, 10))).toEqual(expect.arrayContaining(['31161501', '31161502']));
    expect(results).toHaveLength(20);
  });

  test('servicios de facturacion (no accent) finds Servicios de facturación first; case and accents do not matter', () => {
    expect(index.searchProducts('servicios de facturacion')[0]).toEqual({
      clave: '84111506',
      nombre: 'Servicios de facturación',
    });
    expect(index.searchProducts('SERVICIOS DE FACTURACIÓN', 1)).toEqual([
      { clave: '84111506', nombre: 'Servicios de facturación' },
    ]);
  });

  test('laptop, named only in the synonyms of 43211508 (Computadores personales), finds it first (issue #34)', () => {
    expect(claves(index.searchProducts('laptop', 20)).slice(0, 2)).toEqual(['43211508', '43211503']);
    // The thesaurus still widens the search: the portable things follow.
    expect(
      index
        .searchProducts('laptop', 20)
        .slice(2)
        .every((r) => /portátil|notebook/i.test(r.nombre)),
    ).toBe(true);
  });

  test('computadora portatil finds the notebook computers (43211503) first', () => {
    expect(claves(index.searchProducts('computadora portatil', 3))[0]).toBe('43211503');
    expect(claves(index.searchProducts('laptop', 5))).toContain('43211503');
  });

  test('a key prefix lists keys in order; an exact key comes first', () => {
    const results = index.searchProducts('8411', 10);
    expect(results[0]).toEqual({ clave: '84111500', nombre: 'Servicios contables' });
    expect(results.every((r) => r.clave.startsWith('8411'))).toBe(true);
    expect(claves(results)).toEqual([...claves(results)].sort());
    expect(index.searchProducts('84111506', 1)).toEqual([
      { clave: '84111506', nombre: 'Servicios de facturación' },
    ]);
  });

  test('computadora lists computers first, not milking machines (Ordeñadoras folds into a would-be synonym)', () => {
    const results = index.searchProducts('computadora', 5);
    expect(results.map((r) => r.nombre)).not.toContainEqual(expect.stringMatching(/Orde[ñn]adora/));
    expect(results[0]!.nombre).toMatch(/^Computador/);
  });

  test('plurals in -es and -ces meet their singulars: luces finds Luz, meses finds the month unit', () => {
    expect(index.searchProducts('luces', 50).map((r) => r.nombre)).toContainEqual(
      expect.stringMatching(/^Luz/),
    );
    expect(index.searchUnits('meses', 5).map((u) => u.clave)).toContain('MON');
  });

  test('camion finds Camión', () => {
    const results = index.searchProducts('camion', 5);
    expect(results.length).toBe(5);
    expect(results.every((r) => /cami[oó]n/i.test(r.nombre))).toBe(true);
  });

  test('every word must match; a synonym match ranks like a description match', () => {
    expect(index.searchProducts('tornillo madera', 1)).toEqual([
      { clave: '31161508', nombre: 'Tornillos de rosca para madera' },
    ]);
    // 'Pija' is only a synonym of 31161503 (Clavo-tornillo), as a whole word: it goes before 'Pijamas …', where
    // the word is only a prefix.
    expect(claves(index.searchProducts('pija', 5))[0]).toBe('31161503');
    const computadora = index.searchProducts('computadora personal', 5);
    expect(claves(computadora)).toContain('43211508');
  });

  test('without a keyword: the first entries by key; limit is clamped to 1..100', () => {
    expect(claves(index.searchProducts(undefined, 3))).toEqual(['01010101', '10101500', '10101501']);
    expect(index.searchProducts('servicio', 500)).toHaveLength(100);
    expect(index.searchProducts('servicio', 0)).toHaveLength(20);
  });

  test('expired keys are not searchable and not valid for stamping', () => {
    expect(index.searchProducts('15101506')).toEqual([]);
    expect(index.lookup.hasProductCode('15101506')).toBe(false);
    expect(index.lookup.hasProductCode('15101505')).toBe(true);
    expect(index.searchProducts('15101506', 1, { includeExpired: true })).toEqual([
      { clave: '15101506', nombre: 'Gasolina' },
    ]);
  });

  test('nonsense finds nothing', () => {
    expect(index.searchProducts('xqzwv')).toEqual([]);
  });
});

describe('units', () => {
  test('pieza → H87, kilogramo and kg → KGM, keys case-insensitively', () => {
    expect(index.searchUnits('pieza', 1)).toEqual([{ clave: 'H87', nombre: 'Pieza', simbolo: null }]);
    expect(index.searchUnits('kilogramo', 1)).toEqual([{ clave: 'KGM', nombre: 'Kilogramo', simbolo: 'kg' }]);
    expect(claves(index.searchUnits('kg', 1))).toEqual(['KGM']);
    expect(claves(index.searchUnits('h87', 1))).toEqual(['H87']);
    expect(claves(index.searchUnits('servicio', 1))).toEqual(['E48']);
  });
});

describe('small catalogs and lookups', () => {
  test('lists have the API shapes', () => {
    expect(index.listUsosCfdi()).toContainEqual({
      clave: 'G03',
      nombre: 'Gastos en general.',
      fisica: true,
      moral: true,
    });
    expect(index.listRegimenes()).toContainEqual({
      clave: '605',
      nombre: expect.stringMatching(/^Sueldos/),
      fisica: true,
      moral: false,
    });
    expect(index.listFormasPago()).toContainEqual({ clave: '99', nombre: 'Por definir' });
    expect(index.listMonedas()).toContainEqual({ clave: 'USD', nombre: expect.stringMatching(/d[oó]lar/i) });
    expect(index.listMonedas().map((m) => m.clave)).toContain('MXN');
    expect(index.listUsosCfdi()).toHaveLength(24);
    expect(index.rows('tasas-o-cuotas')).toContainEqual(
      expect.objectContaining({ impuesto: 'IVA', factor: 'Tasa', valor_maximo: '0.160000' }),
    );
  });

  test('lookups for the CFDI validation', () => {
    expect(index.lookup.hasUnitCode('H87')).toBe(true);
    expect(index.lookup.hasUnitCode('NOPE')).toBe(false);
    expect(index.lookup.usoCfdi('CN01')).toEqual({ fisica: true, moral: false, regimenesReceptor: ['605'] });
    expect(index.lookup.usoCfdi('P01')).toBeUndefined();
    expect(index.lookup.regimen('601')).toEqual({ fisica: false, moral: true });
    expect(index.lookup.hasFormaPago('03')).toBe(true);
    expect(index.lookup.hasFormaPago('98')).toBe(false);
  });

  test('a fresh install answers small catalogs from the shipped copies', () => {
    const shipped = CatalogIndex.shipped();
    expect(shipped.listUsosCfdi()).toEqual(index.listUsosCfdi());
    expect(shipped.listFormasPago()).toEqual(index.listFormasPago());
    expect(shipped.lookup.regimen('612')).toEqual({ fisica: true, moral: false });
    expect(shipped.searchProducts('tornillo')).toEqual([]);
  });
});
