import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNominaXml, sealXml, validateNominaRequest, type Csd, type NominaInput } from '../src';
import { nomina, NOMINA_EMPLOYERS } from './nomina-generators';
import { satArithmeticErrors } from './sat-checks';
import { loadCsd, NOW, requireTools } from './sat-dir';
import { sealFailures, xmllintFailures, xsltprocMismatches } from './tools';

jest.setTimeout(600_000);

/**
 * 1,000 generated payroll receipts (fixed seed): each passes the API's NOM rules, and its XML is checked by the
 * SAT's own tools in batches (xmllint with the XSD bundle, xsltproc with the cadena XSLT, openssl for the seal).
 */
const SEED = 20261125;
const RECEIPTS = 1000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-nomina-corpus-'));
const csds = new Map<string, Csd>(NOMINA_EMPLOYERS.map((e) => [e.csd, loadCsd(e.csd)]));
const docs: Array<{
  name: string;
  file: string;
  input: NominaInput;
  csd: string;
  xml: string;
  cadena: string;
  sello: string;
}> = [];

beforeAll(() => {
  requireTools();
  fc.sample(nomina, { seed: SEED, numRuns: RECEIPTS }).forEach(({ input, csd }, i) => {
    const sealed = sealXml(buildNominaXml({ ...input, folio: i + 1 }, { now: NOW }).xml, csds.get(csd)!);
    const name = `${String(i).padStart(4, '0')}-N`;
    const file = path.join(dir, `${name}.xml`);
    fs.writeFileSync(file, sealed.xml);
    docs.push({ name, file, input, csd, xml: sealed.xml, cadena: sealed.cadena, sello: sealed.sello });
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('payroll corpus (fixed seed)', () => {
  it('covers every periodicity, contract and regime type, registro patronal or not, and every node', () => {
    expect(docs.length).toBeGreaterThanOrEqual(1000);
    const attrValues = (name: string) =>
      new Set(
        docs.flatMap((d) => [...d.xml.matchAll(new RegExp(` ${name}="([^"]*)"`, 'g'))].map((m) => m[1])),
      );
    expect([...attrValues('PeriodicidadPago')].sort()).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '99',
    ]);
    expect([...attrValues('TipoContrato')].sort()).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '99',
    ]);
    expect([...attrValues('TipoRegimen')].sort()).toEqual([
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
      '13',
      '99',
    ]);
    expect(attrValues('TipoNomina')).toEqual(new Set(['O', 'E']));
    const all = docs.map((d) => d.xml).join('\n');
    for (const needle of [
      'RegistroPatronal=',
      'nomina12:Emisor Curp=',
      'nomina12:HorasExtra',
      'nomina12:Incapacidad ',
      'TipoPercepcion="014"',
      'TipoDeduccion="006"',
      'nomina12:SeparacionIndemnizacion',
      'TotalUnaExhibicion=',
      'TotalParcialidad=',
      'nomina12:AccionesOTitulos',
      'nomina12:SubsidioAlEmpleo',
      'nomina12:CompensacionSaldosAFavor',
      'TotalImpuestosRetenidos=',
      'TotalOtrasDeducciones=',
      'Banco=',
      'W"',
      'D"',
      'NumDiasPagados="0.',
    ]) {
      expect(all).toContain(needle);
    }
    expect(docs.some((d) => !d.xml.includes('RegistroPatronal='))).toBe(true);
    expect(docs.some((d) => /CuentaBancaria="[0-9]{18}"/.test(d.xml))).toBe(true);
  });

  it('every generated request passes the NOM rules the API checks', () => {
    const refused = docs
      .map((d) => ({
        name: d.name,
        issues: validateNominaRequest(d.input, { issuer: d.input.issuer, now: NOW }),
      }))
      .filter((r) => r.issues.length);
    expect(refused).toEqual([]);
  });

  it('every receipt passes the SAT arithmetic checks (totals by percepción type, deductions, SubTotal, Total)', () => {
    expect(docs.flatMap((d) => satArithmeticErrors(d.xml).map((e) => `${d.name}: ${e}`))).toEqual([]);
  });

  it('every receipt validates against the SAT XSD (xmllint)', async () => {
    expect(await xmllintFailures(docs.map((d) => d.file))).toEqual([]);
  });

  it('every cadena is byte-identical to xsltproc with cadenaoriginal_4_0.xslt (which includes nomina12.xslt)', async () => {
    expect(
      await xsltprocMismatches(
        docs.map((d) => d.file),
        new Map(docs.map((d) => [d.file, d.cadena])),
      ),
    ).toEqual([]);
  });

  it('every seal verifies with openssl dgst -sha256 -verify and with verifySeal', async () => {
    expect(await sealFailures(dir, docs, csds)).toEqual([]);
  });
});
