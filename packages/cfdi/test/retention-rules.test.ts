import { validateRetentionRequest, type RetentionRequest } from '../src';

const ctx = { currentYear: 2026, issuerRfc: 'EKU9003173C9' };
const valid = (): RetentionRequest & Record<string, unknown> => ({
  folioInt: 'R1',
  cveRetenc: '14',
  receiver: {
    nacionalidad: 'Nacional',
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
  },
  period: { mesIni: 1, mesFin: 12, ejercicio: 2025 },
  totals: {
    montoTotGrav: '1000.00',
    montoTotExent: 250.5,
    montoTotOperacion: '1250.50',
    montoTotRet: '150.00',
  },
  withholdings: [
    { impuestoRet: '001', baseRet: 1000, montoRet: 100, tipoPagoRet: '01' },
    { impuestoRet: '002', montoRet: '50', tipoPagoRet: '03' },
  ],
});

/** One broken rule per case: the request is refused at exactly that path. */
const cases: Array<[string, (r: ReturnType<typeof valid>) => void, string]> = [
  ['folioInt pattern', (r) => (r.folioInt = 'R-1'), '/folioInt'],
  ['CveRetenc catalog', (r) => (r.cveRetenc = '29'), '/cveRetenc'],
  ['DescRetenc with CveRetenc 25', (r) => (r.cveRetenc = '25'), '/descRetenc'],
  [
    'TipoRelacion catalog',
    (r) => (r.related = { tipoRelacion: '09', uuid: '0000001E-001B-1000-B24F-AFE50000000A' }),
    '/related/tipoRelacion',
  ],
  ['related UUID', (r) => (r.related = { tipoRelacion: '04', uuid: 'nope' }), '/related/uuid'],
  [
    'nacionalidad',
    (r) => ((r.receiver as Record<string, unknown>).nacionalidad = 'Mexicana'),
    '/receiver/nacionalidad',
  ],
  [
    'receiver RFC pattern',
    (r) => ((r.receiver as Record<string, unknown>).rfc = 'URE18042'),
    '/receiver/rfc',
  ],
  [
    'receiver RFC not generic',
    (r) => ((r.receiver as Record<string, unknown>).rfc = 'XAXX010101000'),
    '/receiver/rfc',
  ],
  [
    'receiver RFC not the issuer',
    (r) => ((r.receiver as Record<string, unknown>).rfc = 'EKU9003173C9'),
    '/receiver/rfc',
  ],
  ['receiver CURP pattern', (r) => ((r.receiver as Record<string, unknown>).curp = 'ABC'), '/receiver/curp'],
  [
    'receiver CURP state (t_CURP)',
    (r) => ((r.receiver as Record<string, unknown>).curp = 'FUNK671228MXXNLR06'),
    '/receiver/curp',
  ],
  ['receiver zip', (r) => ((r.receiver as Record<string, unknown>).zip = '8699'), '/receiver/zip'],
  ['receiver name', (r) => ((r.receiver as Record<string, unknown>).name = 'A|B'), '/receiver/name'],
  [
    'foreign receiver has no RFC',
    (r) => (r.receiver = { nacionalidad: 'Extranjero', name: 'ACME GMBH', rfc: 'URE180429TM6' }),
    '/receiver/rfc',
  ],
  [
    'foreign NumRegIdTrib length',
    (r) => (r.receiver = { nacionalidad: 'Extranjero', name: 'ACME GMBH', numRegIdTrib: '1'.repeat(21) }),
    '/receiver/numRegIdTrib',
  ],
  ['MesIni is a month', (r) => ((r.period as Record<string, unknown>).mesIni = 0), '/period/mesIni'],
  ['MesFin is a month', (r) => ((r.period as Record<string, unknown>).mesFin = 13), '/period/mesFin'],
  [
    'MesIni ≤ MesFin',
    (r) =>
      ((r.period as Record<string, unknown>).mesIni = 7) &&
      ((r.period as Record<string, unknown>).mesFin = 6),
    '/period/mesFin',
  ],
  ['Ejercicio catalog', (r) => ((r.period as Record<string, unknown>).ejercicio = 2018), '/period/ejercicio'],
  [
    'Ejercicio not after the year of issue',
    (r) => ((r.period as Record<string, unknown>).ejercicio = 2027),
    '/period/ejercicio',
  ],
  [
    'MontoTotGrav ≥ 0',
    (r) => ((r.totals as Record<string, unknown>).montoTotGrav = -1),
    '/totals/montoTotGrav',
  ],
  [
    'MontoTotExent two decimals',
    (r) => ((r.totals as Record<string, unknown>).montoTotExent = '250.505'),
    '/totals/montoTotExent',
  ],
  [
    'MontoTotOperacion = Grav + Exent',
    (r) => ((r.totals as Record<string, unknown>).montoTotOperacion = '1250.49'),
    '/totals/montoTotOperacion',
  ],
  [
    'MontoTotRet = Σ MontoRet',
    (r) => ((r.totals as Record<string, unknown>).montoTotRet = '150.01'),
    '/totals/montoTotRet',
  ],
  ['ImpRetenidos is a list', (r) => (r.withholdings = { montoRet: 1 }), '/withholdings'],
  ['MontoTotRet is 0 without ImpRetenidos', (r) => (r.withholdings = undefined), '/totals/montoTotRet'],
  [
    'MontoRet is an amount',
    (r) => ((r.withholdings as Array<Record<string, unknown>>)[1]!.montoRet = 'x'),
    '/withholdings/1/montoRet',
  ],
  [
    'ImpuestoRet catalog',
    (r) => ((r.withholdings as Array<Record<string, unknown>>)[0]!.impuestoRet = '004'),
    '/withholdings/0/impuestoRet',
  ],
  [
    'TipoPagoRet catalog',
    (r) => ((r.withholdings as Array<Record<string, unknown>>)[0]!.tipoPagoRet = '05'),
    '/withholdings/0/tipoPagoRet',
  ],
];

describe('Retenciones 2.0 rules (validateRetentionRequest)', () => {
  it('accepts the valid request, national and foreign', () => {
    expect(validateRetentionRequest(valid(), ctx)).toEqual([]);
    const withCurp = valid();
    (withCurp.receiver as Record<string, unknown>).curp = 'FUNK671228MDFNLR06';
    expect(validateRetentionRequest(withCurp, ctx)).toEqual([]);
    const foreign = {
      ...valid(),
      receiver: { nacionalidad: 'Extranjero', name: 'ACME <UK> & CO', numRegIdTrib: 'GB123' },
    };
    expect(validateRetentionRequest(foreign, ctx)).toEqual([]);
  });

  it.each(cases)('%s', (_rule, breakIt, path) => {
    const request = valid();
    breakIt(request);
    expect(validateRetentionRequest(request, ctx).map((i) => i.path)).toEqual([path]);
  });
});
