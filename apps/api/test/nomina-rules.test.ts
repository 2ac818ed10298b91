import { getBalanceCentavos } from '@cfdi/services';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { nominaBody, withEmployee } from './nomina-fixtures';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant, PINNED_NOW, satUpload } from './merchant-fixtures';

/**
 * Every SAT Nómina rule the API checks, over HTTP: a 400 naming the field and the NOM code, and nothing reserved or
 * stored. The rules run before any PAC call, so no worker is needed; the CSD upload goes to a sandbox PAC.
 */
let api: ApiHarness;
let account: { testKey: string; accountId: string };
let merchantId: string;
let sandbox: RunningPacSandbox;

beforeAll(async () => {
  sandbox = await startPacSandbox({ now: () => PINNED_NOW });
  api = await startApi({ PAC_SANDBOX_URL: sandbox.url }, { now: () => PINNED_NOW });
  const created = await api.newAccount();
  account = created;
  const merchant = await newMerchant(api, created.testKey, EKU);
  merchantId = merchant.id;
  const csd = await api.request('POST', `/v1/merchants/${merchantId}/csd`, {
    key: created.testKey,
    body: satUpload('EKU9003173C9-csd'),
  });
  expect(csd.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await sandbox?.close();
}, 60_000);

const sueldo = { tipo: '001', clave: '001', concepto: 'Sueldo', importeGravado: 7000, importeExento: 0 };
type Case = [code: string, path: string, body: () => Record<string, unknown>];

const cases: Case[] = [
  ['NOM113', '/employerCurp', () => nominaBody(merchantId, { employerCurp: 'CACX760510MGTSHC04' })],
  ['NOM119', '/employee/rfc', () => withEmployee(merchantId, { rfc: 'URE180429TM6' })],
  [
    'NOM161',
    '/registroPatronal',
    () => {
      const { registroPatronal: _r, ...body } = nominaBody(merchantId);
      return body;
    },
  ],
  [
    'NOM162',
    '/employee/numSeguridadSocial',
    () => withEmployee(merchantId, { numSeguridadSocial: undefined }),
  ],
  [
    'NOM162',
    '/employee/salarioDiarioIntegrado',
    () => withEmployee(merchantId, { salarioDiarioIntegrado: undefined }),
  ],
  ['NOM167', '/employee/tipoContrato', () => withEmployee(merchantId, { tipoContrato: '55' })],
  ['NOM168', '/employee/tipoJornada', () => withEmployee(merchantId, { tipoJornada: '55' })],
  [
    'NOM169',
    '/employee/fechaInicioRelLaboral',
    () => withEmployee(merchantId, { fechaInicioRelLaboral: '2026-11-16' }),
  ],
  [
    'NOM172',
    '/employee/tipoRegimen',
    () => withEmployee(merchantId, { tipoContrato: '09', tipoRegimen: '55' }, { otrosPagos: undefined }),
  ],
  [
    'NOM173',
    '/employee/tipoRegimen',
    () => withEmployee(merchantId, { tipoRegimen: '09' }, { otrosPagos: undefined }),
  ],
  ['NOM174', '/employee/tipoRegimen', () => withEmployee(merchantId, { tipoContrato: '09' })],
  ['NOM176', '/employee/periodicidadPago', () => withEmployee(merchantId, { periodicidadPago: '55' })],
  ['NOM177', '/employee/banco', () => withEmployee(merchantId, { banco: '999' })],
  ['NOM178', '/employee/cuentaBancaria', () => withEmployee(merchantId, { cuentaBancaria: '123456789012' })],
  ['NOM179', '/employee/banco', () => withEmployee(merchantId, { cuentaBancaria: '002010077777777771' })],
  [
    'NOM180',
    '/employee/cuentaBancaria',
    () => withEmployee(merchantId, { banco: undefined, cuentaBancaria: '002010077777777772' }),
  ],
  [
    'NOM181',
    '/employee/banco',
    () => withEmployee(merchantId, { banco: undefined, cuentaBancaria: '4152313412345678' }),
  ],
  ['NOM182', '/employee/claveEntFed', () => withEmployee(merchantId, { claveEntFed: 'ON' })],
  [
    'NOM153',
    '/period/fechaInicialPago',
    () =>
      nominaBody(merchantId, {
        period: {
          tipoNomina: 'O',
          fechaPago: '2026-11-15',
          fechaInicialPago: '2026-11-16',
          fechaFinalPago: '2026-11-15',
          numDiasPagados: 15,
        },
      }),
  ],
  ['NOM151', '/employee/periodicidadPago', () => withEmployee(merchantId, { periodicidadPago: '99' })],
  [
    'NOM152',
    '/employee/periodicidadPago',
    () =>
      nominaBody(merchantId, {
        period: {
          tipoNomina: 'E',
          fechaPago: '2026-11-15',
          fechaInicialPago: '2026-11-01',
          fechaFinalPago: '2026-11-15',
          numDiasPagados: 1,
        },
      }),
  ],
  [
    'NOM149',
    '/percepciones',
    () => nominaBody(merchantId, { percepciones: undefined, otrosPagos: undefined, deducciones: undefined }),
  ],
  [
    'NOM109',
    '/deducciones',
    () =>
      nominaBody(merchantId, {
        deducciones: [{ tipo: '004', clave: '004', concepto: 'Préstamo', importe: 9000 }],
      }),
  ],
  [
    'NOM191',
    '/percepciones/0/importeGravado',
    () => nominaBody(merchantId, { percepciones: [{ ...sueldo, importeGravado: 0 }] }),
  ],
  [
    'NOM192',
    '/percepciones/0/tipo',
    () => nominaBody(merchantId, { percepciones: [{ ...sueldo, tipo: '999' }] }),
  ],
  [
    'NOM204',
    '/percepciones/0/horasExtra',
    () => nominaBody(merchantId, { percepciones: [{ ...sueldo, tipo: '019' }] }),
  ],
  [
    'NOM205',
    '/percepciones/0/horasExtra',
    () =>
      nominaBody(merchantId, {
        percepciones: [
          { ...sueldo, horasExtra: [{ dias: 1, tipoHoras: '01', horasExtra: 2, importePagado: 500 }] },
        ],
      }),
  ],
  [
    'NOM202',
    '/percepciones/0/accionesOTitulos',
    () => nominaBody(merchantId, { percepciones: [{ ...sueldo, tipo: '045' }] }),
  ],
  [
    'NOM203',
    '/percepciones/0/accionesOTitulos',
    () =>
      nominaBody(merchantId, {
        percepciones: [{ ...sueldo, accionesOTitulos: { valorMercado: 10, precioAlOtorgarse: 5 } }],
      }),
  ],
  [
    'NOM206',
    '/incapacidades',
    () => nominaBody(merchantId, { percepciones: [sueldo, { ...sueldo, tipo: '014', clave: 'INC' }] }),
  ],
  [
    'NOM207',
    '/incapacidades',
    () =>
      nominaBody(merchantId, {
        percepciones: [sueldo, { ...sueldo, tipo: '014', clave: 'INC', importeGravado: 500 }],
        incapacidades: [{ dias: 2, tipo: '02', importe: 300 }],
      }),
  ],
  [
    'NOM196',
    '/separacionIndemnizacion',
    () => nominaBody(merchantId, { percepciones: [sueldo, { ...sueldo, tipo: '023', clave: 'SEP' }] }),
  ],
  [
    'NOM197',
    '/separacionIndemnizacion',
    () =>
      nominaBody(merchantId, {
        separacionIndemnizacion: { numAniosServicio: 3, ultimoSueldoMensOrd: 15000 },
      }),
  ],
  [
    'NOM198',
    '/jubilacionPensionRetiro',
    () => nominaBody(merchantId, { percepciones: [sueldo, { ...sueldo, tipo: '039', clave: 'JUB' }] }),
  ],
  [
    'NOM199',
    '/jubilacionPensionRetiro',
    () => nominaBody(merchantId, { jubilacionPensionRetiro: { montoDiario: 100 } }),
  ],
  [
    'NOM200',
    '/percepciones',
    () =>
      nominaBody(merchantId, {
        percepciones: [
          { ...sueldo, tipo: '039' },
          { ...sueldo, tipo: '044', clave: 'PAR' },
        ],
        jubilacionPensionRetiro: { montoDiario: 100, ultimoSueldoMensOrd: 1 },
      }),
  ],
  [
    'NOM201',
    '/jubilacionPensionRetiro/montoDiario',
    () => nominaBody(merchantId, { percepciones: [{ ...sueldo, tipo: '044' }], jubilacionPensionRetiro: {} }),
  ],
  [
    'NOM213',
    '/deducciones/0/tipo',
    () =>
      nominaBody(merchantId, { deducciones: [{ tipo: '999', clave: '999', concepto: 'X', importe: 10 }] }),
  ],
  [
    'NOM214',
    '/deducciones/0/importe',
    () =>
      nominaBody(merchantId, {
        deducciones: [{ tipo: '006', clave: '006', concepto: 'Incapacidad', importe: 10 }],
      }),
  ],
  [
    'NOM216',
    '/otrosPagos/0/tipo',
    () => nominaBody(merchantId, { otrosPagos: [{ tipo: '555', clave: '555', concepto: 'X', importe: 10 }] }),
  ],
  [
    'NOM217',
    '/otrosPagos/0/compensacionSaldosAFavor',
    () =>
      nominaBody(merchantId, {
        otrosPagos: [{ tipo: '004', clave: '004', concepto: 'Compensación', importe: 10 }],
      }),
  ],
  [
    'NOM218',
    '/otrosPagos/0/subsidioCausado',
    () =>
      nominaBody(merchantId, {
        otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 10 }],
      }),
  ],
  [
    'NOM220',
    '/otrosPagos/0/subsidioCausado',
    () =>
      nominaBody(merchantId, {
        otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 30, subsidioCausado: 20 }],
      }),
  ],
  [
    'NOM221',
    '/otrosPagos/0/compensacionSaldosAFavor/remanenteSalFav',
    () =>
      nominaBody(merchantId, {
        otrosPagos: [
          {
            tipo: '004',
            clave: '004',
            concepto: 'Compensación',
            importe: 10,
            compensacionSaldosAFavor: { saldoAFavor: 100, anio: 2025, remanenteSalFav: 200 },
          },
        ],
      }),
  ],
  [
    'NOM222',
    '/otrosPagos/0/compensacionSaldosAFavor/anio',
    () =>
      nominaBody(merchantId, {
        otrosPagos: [
          {
            tipo: '004',
            clave: '004',
            concepto: 'Compensación',
            importe: 10,
            compensacionSaldosAFavor: { saldoAFavor: 100, anio: 2026, remanenteSalFav: 50 },
          },
        ],
      }),
  ],
  [
    'NOM223',
    '/incapacidades/0/tipo',
    () => nominaBody(merchantId, { incapacidades: [{ dias: 2, tipo: '09', importe: 300 }] }),
  ],
  ['tipoRegimen 02', '/otrosPagos/0/tipo', () => withEmployee(merchantId, { tipoRegimen: '03' })],
];

describe('SAT Nómina rules on POST /v1/nominas', () => {
  it.each(cases)('%s: 400 naming %s, nothing reserved', async (code, path, body) => {
    const res = await api.request('POST', '/v1/nominas', {
      key: account.testKey,
      body: body(),
      headers: { 'idempotency-key': `rule-${code}-${path}` },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const error = (res.body.errors as Array<{ path: string; message: string }>).find((e) => e.path === path);
    expect(error?.message).toContain(code);
    expect(
      await getBalanceCentavos(api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000);
  });
});

/** Issue #34's base body: employee FUNK671228PH6, 2026-11-01..15, salary 7,500 (ISR withheld, no subsidy). */
const funk = (overrides: Record<string, unknown> = {}, employee: Record<string, unknown> = {}) =>
  withEmployee(
    merchantId,
    {
      rfc: 'FUNK671228PH6',
      name: 'KARLA FUENTE NOLASCO',
      zip: '01160',
      curp: 'FUNK671228MDFNLR09',
      ...employee,
    },
    {
      percepciones: [{ ...sueldo, importeGravado: 7500 }],
      deducciones: [{ tipo: '002', clave: '002', concepto: 'ISR', importe: 640.5 }],
      otrosPagos: undefined,
      ...overrides,
    },
  );
const compensacion = (anio: number) => ({
  otrosPagos: [
    {
      tipo: '004',
      clave: '004',
      concepto: 'Compensación',
      importe: 10,
      compensacionSaldosAFavor: { saldoAFavor: 100, anio, remanenteSalFav: 50 },
    },
  ],
});
const amountCase = (path: string, overrides: Record<string, unknown>, employee = {}): AccountantCase => [
  'must be <= 10000000000000',
  path,
  () => funk(overrides, employee),
];
type AccountantCase = [expected: string, path: string, body: () => Record<string, unknown>];

const accountantCases: AccountantCase[] = [
  amountCase('/percepciones/0/importeGravado', { percepciones: [{ ...sueldo, importeGravado: 1e18 }] }),
  amountCase('/percepciones/0/importeGravado', { percepciones: [{ ...sueldo, importeGravado: 1e17 }] }),
  amountCase('/percepciones/0/importeGravado', { percepciones: [{ ...sueldo, importeGravado: 1e15 }] }),
  amountCase('/percepciones/0/importeGravado', {
    percepciones: [{ ...sueldo, importeGravado: 9007199254740993 }],
  }),
  amountCase('/employee/salarioDiarioIntegrado', {}, { salarioDiarioIntegrado: 1e18 }),
  [
    'at most 2 decimals',
    '/employee/salarioDiarioIntegrado',
    () => funk({}, { salarioDiarioIntegrado: 0.0000001 }),
  ],
  [
    'SubTotal must be at most',
    '/percepciones',
    () =>
      funk({
        percepciones: [
          { ...sueldo, importeGravado: 9e12 },
          { ...sueldo, clave: '002', importeGravado: 9e12 },
        ],
      }),
  ],
  ['birth date 491214', '/employee/curp', () => funk({}, { curp: 'MISC491214MDFRNC01' })],
  ['birth date 671229', '/employee/curp', () => funk({}, { curp: 'FUNK671229MDFNLR09' })],
  ["do not match the RFC's FUNK", '/employee/curp', () => funk({}, { curp: 'MISC671228MDFRNC01' })],
  ['generic RFC', '/employee/rfc', () => funk({}, { rfc: 'XAXX010101000', curp: 'FUNK671228MDFNLR09' })],
  [
    'has 15, not 30',
    '/period/numDiasPagados',
    () =>
      funk({
        period: {
          tipoNomina: 'O',
          fechaPago: '2026-11-15',
          fechaInicialPago: '2026-11-01',
          fechaFinalPago: '2026-11-15',
          numDiasPagados: 30,
        },
      }),
  ],
  [
    'at most 264.31',
    '/otrosPagos/0/subsidioCausado',
    () =>
      funk({
        otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 10, subsidioCausado: 5000 }],
      }),
  ],
  ['NOM222', '/otrosPagos/0/compensacionSaldosAFavor/anio', () => funk(compensacion(2023))],
  [
    'add the ISR withheld as deducción 002',
    '/deducciones',
    () =>
      funk({
        percepciones: [{ ...sueldo, importeGravado: 50000 }],
        deducciones: [{ tipo: '001', clave: '001', concepto: 'IMSS', importe: 180.25 }],
      }),
  ],
  [
    'send it as deducción 002',
    '/deducciones/0/tipo',
    () => funk({ deducciones: [{ tipo: '004', clave: '004', concepto: 'ISR', importe: 640.5 }] }),
  ],
  ['CFDI40145', '/employee/name', () => funk({}, { name: 'karla fuente nolasco' })],
  [
    'must be one of: 04',
    '/relatedDocuments/0/tipoRelacion',
    () =>
      funk({ relatedDocuments: [{ tipoRelacion: '01', uuids: ['9B1E2C3D-4F5A-4B6C-8D7E-0F1A2B3C4D5E'] }] }),
  ],
  [
    'is not a payroll receipt of this account and mode',
    '/relatedDocuments/0/uuids/0',
    () =>
      funk({ relatedDocuments: [{ tipoRelacion: '04', uuids: ['9B1E2C3D-4F5A-4B6C-8D7E-0F1A2B3C4D5E'] }] }),
  ],
];

describe('payroll rules an accountant applies (issue #34), on POST /v1/nominas', () => {
  it.each(accountantCases)('"%s": 400 naming %s, nothing reserved', async (expected, path, body) => {
    const res = await api.request('POST', '/v1/nominas', {
      key: account.testKey,
      body: body(),
      headers: { 'idempotency-key': `accountant-${expected}-${path}` },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const error = (res.body.errors as Array<{ path: string; message: string }>).find((e) => e.path === path);
    expect(error?.message).toContain(expected);
    expect(
      await getBalanceCentavos(api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000);
  });

  it('a batch of receipts at 1e17 is refused whole with each path, nothing reserved', async () => {
    const { merchantId: _m, ...receipt } = funk({ percepciones: [{ ...sueldo, importeGravado: 1e17 }] });
    const res = await api.request('POST', '/v1/nominas/batch', {
      key: account.testKey,
      body: { merchantId, nominas: Array.from({ length: 20 }, () => receipt) },
      headers: { 'idempotency-key': 'rule-batch-1e17' },
    });
    expect(res.status).toBe(400);
    expect((res.body.errors as Array<{ path: string }>).map((e) => e.path)).toContain(
      '/nominas/0/percepciones/0/importeGravado',
    );
    expect(
      await getBalanceCentavos(api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000);
  });
});
