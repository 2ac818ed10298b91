import fs from 'node:fs';
import path from 'node:path';
import { buildPaymentXml, cadenaOriginal, parseTfd, tfdCadena, verifySeal, sealXml } from '../src';
import { EXAMPLES, loadCsd, xmllintOk } from './sat-dir';

const read = (name: string) => fs.readFileSync(path.join(EXAMPLES, name), 'utf8');

describe('SAT examples', () => {
  it.each(['cfdi40-ingreso', 'cfdi40-ingreso-ppd', 'cfdi40-pago'])(
    '%s: cadena is byte-identical to the reference',
    (name) => {
      expect(cadenaOriginal(read(`${name}.xml`))).toBe(read(`${name}.cadena.txt`));
    },
  );

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

  it.each([
    'cfdi40-ingreso.xml',
    'cfdi40-ingreso-ppd.xml',
    'cfdi40-pago.xml',
    'cfdi40-ingreso.timbrado-MOCK.xml',
  ])('%s: seal verifies', (name) => {
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

  it('buildPaymentXml reproduces the Pagos 2.0 example: same cadena, same Sello, schema-valid', () => {
    const { xml, computed } = buildPaymentXml(
      {
        issuer: {
          rfc: 'EKU9003173C9',
          legalName: 'ESCUELA KEMPER URGATE',
          regimenFiscal: '601',
          zip: '42501',
        },
        receiver: {
          rfc: 'URE180429TM6',
          name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
          zip: '86991',
          regimenFiscal: '601',
        },
        serie: 'P',
        folio: 501,
        fechaPago: '2026-11-19T13:05:00',
        formaPago: '03',
        numOperacion: 'SPEI-0001234',
        monto: 15960,
        numParcialidad: 1,
        saldoAnterior: 31920,
        invoice: {
          uuid: '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
          serie: 'A',
          folio: '1002',
          total: '31920.00',
          taxGroups: [
            {
              impuesto: '002',
              tipoFactor: 'Tasa',
              tasaOCuota: '0.160000',
              base: '24500.00',
              importe: '3920.00',
            },
            { impuesto: '002', tipoFactor: 'Exento', base: '3500.00' },
          ],
        },
      },
      { now: new Date('2026-11-20T18:30:00Z') },
    );
    expect(computed.impSaldoInsoluto).toBe('15960.00');
    const sealed = sealXml(xml, loadCsd());
    expect(sealed.cadena).toBe(read('cfdi40-pago.cadena.txt'));
    expect(sealed.sello).toBe(/ Sello="([^"]*)"/.exec(read('cfdi40-pago.xml'))![1]);
    expect(xmllintOk(sealed.xml)).toBe(true);
  });
});
