import type { ColumnSpec } from '../definitions';
import { cellValue } from './cell-values';

const col = (kind: ColumnSpec['kind'], pad?: number): ColumnSpec => ({ name: 'x', header: /x/, kind, pad });

test('dates: Excel serials and DD/MM/YYYY text become ISO dates', () => {
  expect(cellValue(43472, col('date'))).toBe('2019-01-07');
  expect(cellValue('15/01/2020', col('date'))).toBe('2020-01-15');
  expect(cellValue('', col('date'))).toBe('');
  expect(() => cellValue('enero', col('date'))).toThrow(/not a date/);
});

test('SAT yes/no notations', () => {
  expect([
    cellValue('Sí', col('yes')),
    cellValue('Opcional', col('yes')),
    cellValue(1, col('yes')),
    cellValue(0, col('yes')),
  ]).toEqual(['true', 'false', 'true', 'false']);
  expect([
    cellValue('No', col('not-no')),
    cellValue('Opcional', col('not-no')),
    cellValue('Sí', col('not-no')),
  ]).toEqual(['false', 'true', 'true']);
  expect([
    cellValue('No', col('pattern')),
    cellValue('Opcional', col('pattern')),
    cellValue('[0-9]{11}', col('pattern')),
  ]).toEqual(['', '.*', '[0-9]{11}']);
});

test('codes, decimals and padded keys', () => {
  expect(cellValue('601, 603,606 ', col('codes'))).toBe('601,603,606');
  expect(cellValue(0.16, col('decimal6'))).toBe('0.160000');
  expect(cellValue(1010101, col('text', 8))).toBe('01010101');
  expect(cellValue('H87', col('text', 2))).toBe('H87');
});
