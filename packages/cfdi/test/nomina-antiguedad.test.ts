import fs from 'node:fs';
import path from 'node:path';
import { antiguedad, clabeIsValid, nominaCatalogs } from '../src';
import { SAT_DIR } from './sat-dir';

describe('antiguedad', () => {
  it('counts whole weeks of (days elapsed + 1), the largest value NOM170 accepts', () => {
    expect(antiguedad('2015-01-16', '2026-11-15')).toBe('P617W');
    expect(antiguedad('2026-11-09', '2026-11-15')).toBe('P1W');
    expect(antiguedad('2026-11-10', '2026-11-15')).toBe('P0W');
  });

  it('counts years, months and days elapsed, leaving out zero years and months (XSD pattern)', () => {
    expect(antiguedad('2015-01-16', '2026-11-15', 'ymd')).toBe('P11Y9M30D');
    expect(antiguedad('2026-01-31', '2026-03-01', 'ymd')).toBe('P1M1D');
    expect(antiguedad('2025-11-15', '2026-11-15', 'ymd')).toBe('P1Y0D');
    expect(antiguedad('2026-11-15', '2026-11-15', 'ymd')).toBe('P0D');
    expect(antiguedad('2024-02-29', '2026-02-28', 'ymd')).toBe('P2Y0D');
    expect(antiguedad('2026-01-31', '2026-02-27', 'ymd')).toBe('P27D');
  });
});

describe('clabeIsValid', () => {
  it('checks the 18th digit with the 3-7-1 weights', () => {
    expect(clabeIsValid('002010077777777771')).toBe(true);
    expect(clabeIsValid('002010077777777772')).toBe(false);
  });
});

describe('Nómina catalogs', () => {
  const tsv = (file: string) =>
    fs
      .readFileSync(path.join(SAT_DIR, 'catalogs', file), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'));
  it.each([
    ['nomina_tipos_percepcion.tsv', nominaCatalogs.TIPOS_PERCEPCION],
    ['nomina_tipos_deduccion.tsv', nominaCatalogs.TIPOS_DEDUCCION],
    ['nomina_tipos_otro_pago.tsv', nominaCatalogs.TIPOS_OTRO_PAGO],
    ['nomina_tipos_contrato.tsv', nominaCatalogs.TIPOS_CONTRATO],
    ['nomina_tipos_regimen.tsv', nominaCatalogs.TIPOS_REGIMEN],
    ['nomina_tipos_jornada.tsv', nominaCatalogs.TIPOS_JORNADA],
    ['nomina_periodicidades_pago.tsv', nominaCatalogs.PERIODICIDADES_PAGO],
    ['nomina_riesgos_puesto.tsv', nominaCatalogs.RIESGOS_PUESTO],
    ['nomina_tipos_incapacidad.tsv', nominaCatalogs.TIPOS_INCAPACIDAD],
    ['nomina_tipos_horas.tsv', nominaCatalogs.TIPOS_HORAS],
    ['nomina_bancos.tsv', nominaCatalogs.BANCOS],
  ])('%s has the same keys and end dates as the SAT data', (file, catalog) => {
    const rows = tsv(file);
    expect([...catalog.keys]).toEqual(rows.map((r) => r[0]));
    const header = fs
      .readFileSync(path.join(SAT_DIR, 'catalogs', file), 'utf8')
      .split('\n')[0]!
      .split('\t');
    const until = header.indexOf('vigencia_hasta');
    const expired =
      until < 0 ? {} : Object.fromEntries(rows.filter((r) => r[until]).map((r) => [r[0], r[until]]));
    expect({ ...catalog.validUntil }).toEqual(expired);
  });

  it('ESTADOS_MEX lists the Mexican states of c_Estado', () => {
    expect([...nominaCatalogs.ESTADOS_MEX.keys]).toEqual(
      tsv('nomina_estados.tsv')
        .filter((r) => r[1] === 'MEX')
        .map((r) => r[0]),
    );
  });
});
