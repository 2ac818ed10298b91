import fs from 'node:fs';
import path from 'node:path';
import { cadenaOriginal, parseTfd, tfdCadena, verifySeal, sealXml } from '../src';
import { EXAMPLES, loadCsd } from './sat-dir';

const read = (name: string) => fs.readFileSync(path.join(EXAMPLES, name), 'utf8');

describe('SAT examples', () => {
  it.each(['cfdi40-ingreso', 'cfdi40-ingreso-ppd', 'cfdi40-pago'])('%s: cadena is byte-identical to the reference', (name) => {
    expect(cadenaOriginal(read(`${name}.xml`))).toBe(read(`${name}.cadena.txt`));
  });

  it('stamping does not change the cadena (MOCK)', () => {
    expect(cadenaOriginal(read('cfdi40-ingreso.timbrado-MOCK.xml'))).toBe(read('cfdi40-ingreso.cadena.txt'));
  });

  it('TFD cadena of the MOCK example', () => {
    const xml = read('cfdi40-ingreso.timbrado-MOCK.xml');
    const expected = read('cfdi40-ingreso.timbrado-MOCK.tfd-cadena.txt');
    expect(tfdCadena(xml)).toBe(expected);
    const tfd = parseTfd(xml)!;
    expect(tfd.uuid).toBe('0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D');
    expect(tfdCadena(tfd)).toBe(expected);
  });

  it.each(['cfdi40-ingreso.xml', 'cfdi40-ingreso-ppd.xml', 'cfdi40-pago.xml', 'cfdi40-ingreso.timbrado-MOCK.xml'])('%s: seal verifies', (name) => {
    expect(verifySeal(read(name))).toEqual({ valid: true });
  });

  it('re-sealing an example with the same CSD reproduces its Sello (PKCS#1 v1.5 is deterministic)', () => {
    const xml = read('cfdi40-ingreso.xml');
    const sealed = sealXml(xml, loadCsd());
    expect(sealed.sello).toBe(/ Sello="([^"]*)"/.exec(xml)![1]);
    expect(sealed.noCertificado).toBe('30001000000500003416');
  });

  it('a tampered document fails verification', () => {
    const xml = read('cfdi40-ingreso.xml').replace('Total="31920.00"', 'Total="31920.01"');
    expect(verifySeal(xml)).toEqual({ valid: false, reason: 'Sello does not match the cadena original' });
  });
});
