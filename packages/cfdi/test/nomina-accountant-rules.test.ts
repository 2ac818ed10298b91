import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildNominaXml,
  cfdiRelacionados,
  MAX_AMOUNT,
  maxSubsidioCausado,
  payablePeriodDays,
  sealXml,
  subsidioEnVigor,
  validateNominaRequest,
  type NominaInput,
  type NominaRequest,
} from '../src';
import { dec } from '../src/decimal/money';
import { curpLettersFitRfc } from '../src/validation/nomina-identity';
import { CADENA_XSLT, loadCsd, NOW, requireTools, xmllintOk } from './sat-dir';

/**
 * The payroll rules an accountant applies beyond the SAT's matrix (issue #34): amounts within the invoices'
 * limits, CURP of the RFC's person, the worker's own RFC and name in capitals, days within the period, the
 * subsidy's legal cap, ISR withheld as 002, the compensación year, and substitution (CfdiRelacionados 04).
 */
const issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const base: NominaRequest = {
  registroPatronal: 'B5510768108',
  employee: {
    rfc: 'FUNK671228PH6',
    name: 'KARLA FUENTE NOLASCO',
    zip: '01160',
    curp: 'FUNK671228MDFNLR09',
    numSeguridadSocial: '04078873454',
    fechaInicioRelLaboral: '2015-01-16',
    tipoContrato: '01',
    tipoRegimen: '02',
    numEmpleado: 'E-7',
    riesgoPuesto: '1',
    periodicidadPago: '04',
    salarioDiarioIntegrado: 515.43,
    claveEntFed: 'JAL',
  },
  period: {
    tipoNomina: 'O',
    fechaPago: '2026-11-15',
    fechaInicialPago: '2026-11-01',
    fechaFinalPago: '2026-11-15',
    numDiasPagados: 15,
  },
  percepciones: [{ tipo: '001', clave: '001', concepto: 'Sueldo', importeGravado: 7500, importeExento: 0 }],
  deducciones: [{ tipo: '002', clave: '002', concepto: 'ISR', importe: 640.5 }],
};
const issuesOf = (req: NominaRequest) => validateNominaRequest(req, { issuer, now: NOW });
const pathsOf = (req: NominaRequest) => issuesOf(req).map((i) => i.path);
const withEmployee = (e: Partial<NominaRequest['employee']>): NominaRequest => ({
  ...base,
  employee: { ...base.employee, ...e },
});

describe('payroll amounts: the invoices’ limit and 2 decimals', () => {
  it('the base receipt is valid', () => expect(issuesOf(base)).toEqual([]));

  it.each([
    [
      '/percepciones/0/importeGravado',
      { percepciones: [{ ...base.percepciones![0]!, importeGravado: 1e18 }] },
    ],
    [
      '/percepciones/0/importeGravado',
      { percepciones: [{ ...base.percepciones![0]!, importeGravado: 1e17 }] },
    ],
    [
      '/percepciones/0/importeExento',
      { percepciones: [{ ...base.percepciones![0]!, importeExento: 9007199254740993 }] },
    ],
    ['/deducciones/0/importe', { deducciones: [{ ...base.deducciones![0]!, importe: 1e15 }] }],
    ['/employee/salarioDiarioIntegrado', { employee: { ...base.employee, salarioDiarioIntegrado: 1e18 } }],
    [
      '/employee/salarioDiarioIntegrado',
      { employee: { ...base.employee, salarioDiarioIntegrado: 0.0000001 } },
    ],
    ['/employee/salarioBaseCotApor', { employee: { ...base.employee, salarioBaseCotApor: 100.123 } }],
  ])('refuses %s', (path, change) => {
    expect(pathsOf({ ...base, ...change } as NominaRequest)).toContain(path);
  });

  it('accepts MAX_AMOUNT itself and refuses a receipt whose sum is above it', () => {
    const at = { ...base.percepciones![0]!, importeGravado: MAX_AMOUNT };
    expect(pathsOf({ ...base, percepciones: [at] })).toEqual([]);
    expect(pathsOf({ ...base, percepciones: [at, { ...at, clave: '002' }] })).toEqual(['/percepciones']);
  });
});

describe('the employee is who the receipt says', () => {
  it('refuses another person’s CURP and one whose birth date differs from the RFC’s', () => {
    expect(issuesOf(withEmployee({ curp: 'MISC491214MDFRNC01' }))[0]).toMatchObject({
      path: '/employee/curp',
      message: expect.stringContaining('birth date 491214'),
    });
    expect(pathsOf(withEmployee({ curp: 'MISC671228MDFRNC01' }))).toEqual(['/employee/curp']);
    expect(pathsOf(withEmployee({ curp: 'FUNK671229MDFNLR09' }))).toEqual(['/employee/curp']);
  });

  it('lets the letters differ only where the SAT and RENAPO write them differently', () => {
    expect(curpLettersFitRfc('BUEX800101AB1', 'BXEI800101HDFRRN01')).toBe(true); // inconvenient word
    expect(curpLettersFitRfc('RAQÑ7701212M3', 'RAQX770121MSPMZV08')).toBe(true); // Ñ written X
    expect(curpLettersFitRfc('PEJU800101AB1', 'PEXJ800101HDFRRN01')).toBe(true); // one surname
    expect(curpLettersFitRfc('FUNK671228PH6', 'FUNA671228MDFNLR09')).toBe(false);
    expect(curpLettersFitRfc('FUNK671228PH6', 'GUNK671228MDFNLR09')).toBe(false);
  });

  it('checks a person employer’s CURP against the employer’s RFC', () => {
    const ctx = { issuer: { rfc: 'CACX7605101P8' }, now: NOW };
    expect(validateNominaRequest({ ...base, employerCurp: 'CACX760510MGTSHC04' }, ctx)).toEqual([]);
    expect(
      validateNominaRequest({ ...base, employerCurp: 'CACX760511MGTSHC04' }, ctx).map((i) => i.path),
    ).toEqual(['/employerCurp']);
  });

  it('refuses the generic RFC (deceased worker not issued) and a name not in capitals', () => {
    expect(pathsOf(withEmployee({ rfc: 'XAXX010101000' }))).toEqual(['/employee/rfc']);
    expect(issuesOf(withEmployee({ name: 'Karla Fuente Nolasco' }))).toEqual([
      { path: '/employee/name', message: expect.stringContaining('CFDI40145') },
    ]);
  });
});

describe('period, subsidy, ISR and compensación', () => {
  it('an ordinary payroll pays at most its period’s days (30-day months counted), an extraordinary one is free', () => {
    expect(payablePeriodDays('2026-11-01', '2026-11-15')).toBe(15);
    expect(payablePeriodDays('2026-02-16', '2026-02-28')).toBe(15);
    expect(payablePeriodDays('2026-02-01', '2026-02-28')).toBe(30);
    expect(payablePeriodDays('2026-01-01', '2026-01-31')).toBe(31);
    const period = (numDiasPagados: number, tipoNomina: 'O' | 'E' = 'O') => ({
      ...base,
      period: { ...base.period, numDiasPagados, tipoNomina },
      employee: { ...base.employee, periodicidadPago: tipoNomina === 'E' ? '99' : '04' },
    });
    expect(pathsOf(period(30))).toEqual(['/period/numDiasPagados']);
    expect(pathsOf(period(15.001))).toEqual(['/period/numDiasPagados']);
    expect(pathsOf(period(30, 'E'))).toEqual([]);
  });

  it('encodes the subsidio para el empleo by payment date and caps SubsidioCausado for the days paid', () => {
    expect(subsidioEnVigor('2026-11-15')!.monthly.toFixed(2)).toBe('535.65');
    expect(subsidioEnVigor('2026-01-15')!.monthly.toFixed(2)).toBe('536.22');
    expect(subsidioEnVigor('2025-06-15')!.monthly.toFixed(2)).toBe('474.65');
    expect(subsidioEnVigor('2023-06-15')!.monthly.toFixed(2)).toBe('407.02');
    expect(maxSubsidioCausado(subsidioEnVigor('2026-11-15')!, dec(15)).toFixed(2)).toBe('264.31');
    expect(maxSubsidioCausado(subsidioEnVigor('2026-11-15')!, dec(31)).toFixed(2)).toBe('535.65');
    const subsidy = (subsidioCausado: number) => ({
      ...base,
      otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 10, subsidioCausado }],
    });
    expect(issuesOf(subsidy(5000))).toEqual([
      { path: '/otrosPagos/0/subsidioCausado', message: expect.stringContaining('at most 264.31') },
    ]);
    expect(issuesOf(subsidy(264.31))).toEqual([]);
  });

  it('ISR withheld is deducción 002: refused as 004, and required on taxed income above the subsidy’s limit', () => {
    expect(
      pathsOf({ ...base, deducciones: [{ tipo: '004', clave: 'ISR', concepto: 'I.S.R.', importe: 640.5 }] }),
    ).toEqual(['/deducciones/0/tipo', '/deducciones']);
    const taxed = (importeGravado: number) => ({
      ...base,
      percepciones: [{ ...base.percepciones![0]!, importeGravado }],
      deducciones: [{ tipo: '001', clave: '001', concepto: 'IMSS', importe: 100 }],
    });
    expect(pathsOf(taxed(50000))).toEqual(['/deducciones']);
    // 15 days of the 2026 limit (11,492.66 a month) is 5,670.72: below it the subsidy may cancel the ISR.
    expect(pathsOf(taxed(5670.72))).toEqual([]);
    expect(pathsOf(taxed(5670.73))).toEqual(['/deducciones']);
  });

  it('NOM222: the balance compensated is from the previous year, or the current one in December', () => {
    const compensacion = (anio: number, fechaFinalPago = '2026-11-15') => ({
      ...base,
      period: { ...base.period, fechaFinalPago },
      otrosPagos: [
        {
          tipo: '004',
          clave: 'CSF',
          concepto: 'Compensación',
          importe: 10,
          compensacionSaldosAFavor: { saldoAFavor: 100, anio, remanenteSalFav: 90 },
        },
      ],
    });
    expect(pathsOf(compensacion(2023))).toEqual(['/otrosPagos/0/compensacionSaldosAFavor/anio']);
    expect(pathsOf(compensacion(2026))).toEqual(['/otrosPagos/0/compensacionSaldosAFavor/anio']);
    expect(pathsOf(compensacion(2025))).toEqual([]);
  });
});

describe('substitution: relatedDocuments 04 on a payroll receipt', () => {
  const uuid = '9B1E2C3D-4F5A-4B6C-8D7E-0F1A2B3C4D5E';

  it('accepts 04 only', () => {
    expect(pathsOf({ ...base, relatedDocuments: [{ tipoRelacion: '04', uuids: [uuid] }] })).toEqual([]);
    expect(pathsOf({ ...base, relatedDocuments: [{ tipoRelacion: '01', uuids: [uuid] }] })).toEqual([
      '/relatedDocuments/0/tipoRelacion',
    ]);
  });

  it('writes CfdiRelacionados before the Emisor: the XML validates and its cadena matches the SAT XSLT', () => {
    requireTools();
    const input: NominaInput = {
      ...base,
      issuer,
      serie: 'N',
      folio: 7,
      relatedDocuments: [{ tipoRelacion: '04', uuids: [uuid.toLowerCase()] }],
    };
    const sealed = sealXml(buildNominaXml(input, { now: NOW }).xml, loadCsd());
    expect(cfdiRelacionados(sealed.xml)).toEqual([{ tipoRelacion: '04', uuids: [uuid] }]);
    expect(xmllintOk(sealed.xml)).toBe(true);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-nom-rel-')), 'n.xml');
    fs.writeFileSync(file, sealed.xml);
    const cadena = execFileSync('xsltproc', [CADENA_XSLT, file], { stdio: ['ignore', 'pipe', 'ignore'] });
    expect(cadena.toString()).toBe(sealed.cadena);
    expect(sealed.cadena).toContain(`|04|${uuid}|`);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
