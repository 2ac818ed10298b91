import fs from 'node:fs';
import path from 'node:path';
import {
  amountInWords,
  formatFecha,
  formatPedimento,
  formatTotalForQr,
  normalizePedimentos,
  normalizeSpace,
  verificationUrlFromXml,
  cadenaOriginal,
} from '../src';
import { EXAMPLES } from './sat-dir';

describe('verification URL (cfdi40.md §9)', () => {
  it('matches the documented URL of the MOCK example', () => {
    const xml = fs.readFileSync(path.join(EXAMPLES, 'cfdi40-ingreso.timbrado-MOCK.xml'), 'utf8');
    expect(verificationUrlFromXml(xml)).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D&re=EKU9003173C9&rr=URE180429TM6&tt=31920.0&fe=RXVUtw==',
    );
  });

  it.each([
    ['31920.00', '31920.0'],
    ['0.99', '0.99'],
    ['1', '1.0'],
    ['0', '0.0'],
    ['1234.5678', '1234.5678'],
    ['0000014300.000000', '14300.0'],
    ['10.50', '10.5'],
  ])('tt %s → %s', (total, tt) => {
    expect(formatTotalForQr(total)).toBe(tt);
  });
});

describe('amountInWords', () => {
  it.each([
    ['1200.50', 'MIL DOSCIENTOS PESOS 50/100 M.N.'],
    ['1.00', 'UN PESO 00/100 M.N.'],
    ['21.00', 'VEINTIÚN PESOS 00/100 M.N.'],
    ['100', 'CIEN PESOS 00/100 M.N.'],
    ['31920.00', 'TREINTA Y UN MIL NOVECIENTOS VEINTE PESOS 00/100 M.N.'],
    ['1000000.00', 'UN MILLÓN DE PESOS 00/100 M.N.'],
    ['2501101.07', 'DOS MILLONES QUINIENTOS UN MIL CIENTO UN PESOS 07/100 M.N.'],
    ['0.99', 'CERO PESOS 99/100 M.N.'],
  ])('%s', (amount, words) => expect(amountInWords(amount)).toBe(words));
});

describe('Fecha in America/Mexico_City', () => {
  it('is the local wall clock without zone (UTC−6, no DST since 2022)', () => {
    expect(formatFecha(new Date('2026-11-21T18:30:05Z'))).toBe('2026-11-21T12:30:05');
    expect(formatFecha(new Date('2026-07-01T05:59:59Z'))).toBe('2026-06-30T23:59:59');
    expect(formatFecha(new Date('2026-11-21T18:30:05Z'), 'America/Tijuana')).toBe('2026-11-21T10:30:05');
  });
});

describe('pedimentos', () => {
  it('normalises 15 digits with or without spaces to the two-space SAT form, dropping duplicates', () => {
    expect(formatPedimento('234738073000123')).toBe('23  47  3807  3000123');
    expect(
      normalizePedimentos([
        '23 47 3807 3000123',
        '234738073000123',
        '23  47  3807  3000123',
        '245012341234567',
      ]),
    ).toEqual(['23  47  3807  3000123', '24  50  1234  1234567']);
    expect(() => formatPedimento('2347')).toThrow();
  });
});

describe('normalize-space', () => {
  it('collapses only XPath whitespace', () => {
    expect(normalizeSpace('  a \t\r\n b  ')).toBe('a b');
    expect(normalizeSpace('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
  });

  it('applies to parsed values, with char references decoded first', () => {
    const xml =
      '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version=" 4.0 " Fecha="x&#10;&#9;y" NoCertificado="" SubTotal="0" Moneda="MXN" Total="0" TipoDeComprobante="P" Exportacion="01" LugarExpedicion="42501" Serie=""/>';
    expect(cadenaOriginal(xml)).toBe('||4.0||x y||0|MXN|0|P|01|42501||');
  });
});
