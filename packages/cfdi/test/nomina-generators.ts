import fc from 'fast-check';
import { dec } from '../src/decimal/money';
import {
  incomeLimitFor,
  maxSubsidioCausado,
  nominaCatalogs,
  payablePeriodDays,
  subsidioEnVigor,
  type Issuer,
  type NominaInput,
  type NominaOtroPago,
  type NominaPercepcion,
} from '../src';

/**
 * Property-based payroll receipts that satisfy every NOM rule the API checks: every periodicity, contract and
 * regime type, with and without registro patronal, every node (horas extra, incapacidades, separación,
 * jubilación, acciones, subsidio, compensación) and bank account kind.
 */
const ISSUED_ON = '2026-11-21';

export const NOMINA_EMPLOYERS: Array<{ issuer: Issuer; csd: string; curp?: string }> = [
  {
    issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    csd: 'EKU9003173C9-csd',
  },
  {
    issuer: { rfc: 'CACX7605101P8', legalName: 'XOCHILT CASAS CHAVEZ', regimenFiscal: '612', zip: '36257' },
    csd: 'CACX7605101P8-csd',
    curp: 'CACX760510MGTSHC04',
  },
];

const WORKERS = [
  { rfc: 'XOJI740919U48', name: 'INGRID XODAR JIMENEZ', zip: '76028', curp: 'XOJI740919MQTDMN03' },
  { rfc: 'RAQÑ7701212M3', name: 'ÑEVES RAMIREZ QUEZADA', zip: '78905', curp: 'RAQN770121MSPMZV08' },
  { rfc: 'FUNK671228PH6', name: 'KARLA FUENTE NOLASCO', zip: '01160', curp: 'FUNK671228MDFNLR09' },
];

/** Keys in force on the issue date that the SAT's catNomina.xsd in shared/sat also lists. */
const inForce = (catalog: nominaCatalogs.NominaCatalog, notInXsd: string[] = []) =>
  catalog.keys.filter((k) => nominaCatalogs.inCatalog(catalog, k, ISSUED_ON) && !notInXsd.includes(k));
const SPECIAL_PERCEPCIONES = ['014', '019', '022', '023', '025', '039', '044', '045'];
const PLAIN_PERCEPCIONES = inForce(nominaCatalogs.TIPOS_PERCEPCION, ['057']).filter(
  (k) => !SPECIAL_PERCEPCIONES.includes(k),
);
const PLAIN_DEDUCCIONES = inForce(nominaCatalogs.TIPOS_DEDUCCION, ['114', '115']).filter((k) => k !== '006');
const PLAIN_OTROS = ['001', '003', '005', '006', '007', '008', '009', '999'];
const BANKS = inForce(nominaCatalogs.BANCOS);
const STATES = inForce(nominaCatalogs.ESTADOS_MEX);

const cents = (min: number, max: number) => fc.integer({ min, max });
const money = (c: number) => (c / 100).toFixed(2);
const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
const day = (from: string, to: string) =>
  fc
    .integer({ min: Date.parse(from), max: Date.parse(to) })
    .map((ms) => new Date(ms).toISOString().slice(0, 10));
const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function withClabeDigit(first17: string): string {
  const weights = [3, 7, 1];
  const total = [...first17].reduce((acc, d, i) => acc + ((Number(d) * weights[i % 3]!) % 10), 0);
  return first17 + String((10 - (total % 10)) % 10);
}

const bankAccount = fc.oneof(
  fc.constant({}),
  fc.record({ banco: fc.constantFrom(...BANKS), cuentaBancaria: fc.constantFrom(10, 11, 16).chain(digits) }),
  digits(17).map((d) => ({ cuentaBancaria: withClabeDigit(d) })),
);

/** Contract/regime/registro patronal combinations the SAT accepts (NOM161, NOM173, NOM174). */
const labour = fc.oneof(
  fc.record({
    tipoContrato: fc.constantFrom('01', '02', '03', '04', '05', '06', '07', '08'),
    tipoRegimen: fc.constantFrom('02', '02', '03', '04'),
    registro: fc.constant(true),
  }),
  fc.record({
    tipoContrato: fc.constantFrom('09', '10', '99'),
    tipoRegimen: fc.constantFrom('05', '06', '07', '08', '09', '10', '11', '12', '13', '99'),
    registro: fc.boolean(),
  }),
);

const plainPercepcion = fc
  .record({ tipo: fc.constantFrom(...PLAIN_PERCEPCIONES), g: cents(0, 3_000_000), e: cents(0, 300_000) })
  .map(({ tipo, g, e }) => ({ tipo, g: g + e === 0 ? 1 : g, e }));

const specials = fc.record({
  horas: fc.boolean(),
  incapacidad: fc.constantFrom('none', 'percepcion', 'deduccion', 'none'),
  separacion: fc.option(fc.subarray(['022', '023', '025'], { minLength: 1 }), { nil: undefined, freq: 4 }),
  jubilacion: fc.option(fc.constantFrom('039', '044'), { nil: undefined, freq: 4 }),
  acciones: fc.boolean(),
  compensacion: fc.boolean(),
});

export const nomina: fc.Arbitrary<{ input: NominaInput; csd: string }> = fc
  .record({
    employer: fc.constantFrom(...NOMINA_EMPLOYERS),
    worker: fc.constantFrom(...WORKERS),
    labour,
    extraordinaria: fc.boolean(),
    periodicidad: fc.constantFrom('01', '02', '03', '04', '05', '06', '07', '08', '09', '10'),
    end: day('2026-01-31', '2026-11-20'),
    length: fc.integer({ min: 0, max: 60 }),
    start: day('1990-01-01', '2026-11-20'),
    antiguedadFormat: fc.constantFrom('weeks', 'ymd', undefined),
    dias: fc.oneof(
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 1, max: 30_000 }).map((n) => n / 1000),
    ),
    optional: fc.record(
      {
        tipoJornada: fc.constantFrom(...inForce(nominaCatalogs.TIPOS_JORNADA)),
        sindicalizado: fc.boolean(),
        departamento: fc.constantFrom('Ingeniería & Diseño', 'Ventas <Norte>', 'Almacén &#124; 2'),
        puesto: fc.constantFrom('Desarrolladora', 'Gerente "A"', 'Jefa &amp; líder'),
      },
      { requiredKeys: [] },
    ),
    bank: bankAccount,
    state: fc.constantFrom(...STATES),
    riesgo: fc.constantFrom(...inForce(nominaCatalogs.RIESGOS_PUESTO)),
    sbc: cents(27_000, 300_000),
    plain: fc.array(plainPercepcion, { minLength: 0, maxLength: 5 }),
    specials,
    deducciones: fc.array(
      fc.record({ tipo: fc.constantFrom(...PLAIN_DEDUCCIONES), imp: cents(1, 500_000) }),
      { maxLength: 5 },
    ),
    isr: fc.option(cents(1, 800_000), { nil: undefined }),
    subsidio: fc.option(fc.record({ paid: cents(1, 47_500), extra: cents(0, 10_000) }), { nil: undefined }),
    otros: fc.array(fc.record({ tipo: fc.constantFrom(...PLAIN_OTROS), imp: cents(1, 200_000) }), {
      maxLength: 2,
    }),
  })
  .map((g) => {
    const fechaFinalPago = g.end;
    const fechaInicialPago = addDays(g.end, -g.length);
    const fechaInicio = g.start <= fechaFinalPago ? g.start : fechaFinalPago;
    const salaried = g.labour.tipoRegimen === '02';
    // An ordinary payroll pays at most its period's days; the subsidy stays within the decree's cap for those days.
    const dias = g.extraordinaria
      ? g.dias
      : Math.min(g.dias, payablePeriodDays(fechaInicialPago, fechaFinalPago));
    const subsidyRow = subsidioEnVigor(fechaFinalPago)!;
    const subsidyCap = Math.round(Number(maxSubsidioCausado(subsidyRow, dec(dias))) * 100) - 1;
    const percepciones: NominaPercepcion[] = g.plain.map((p, i) => ({
      tipo: p.tipo,
      clave: `P${String(i).padStart(2, '0')}`,
      concepto: `Percepción ${p.tipo} & <cía>`,
      importeGravado: money(p.g),
      importeExento: money(p.e),
    }));
    const s = g.specials;
    if (s.horas) {
      percepciones.push({
        tipo: '019',
        clave: 'HEX',
        concepto: 'Horas extra dobles',
        importeGravado: '250.00',
        importeExento: '250.00',
        horasExtra: [
          { dias: 1, tipoHoras: '01', horasExtra: 3, importePagado: '300.00' },
          { dias: 2, tipoHoras: '02', horasExtra: 2, importePagado: '200.00' },
        ],
      });
    }
    if (s.acciones)
      percepciones.push({
        tipo: '045',
        clave: 'ACC',
        concepto: 'Acciones',
        importeGravado: '1200.50',
        importeExento: '0.00',
        accionesOTitulos: { valorMercado: '150.125', precioAlOtorgarse: '100.000001' },
      });
    const incapacidades =
      s.incapacidad === 'none'
        ? []
        : [
            { dias: 3, tipo: '02', importe: '450.30' },
            { dias: 1, tipo: '01', importe: '100.00' },
          ];
    if (s.incapacidad === 'percepcion')
      percepciones.push({
        tipo: '014',
        clave: 'INC',
        concepto: 'Subsidio por incapacidad',
        importeGravado: '0.00',
        importeExento: '550.30',
      });
    for (const tipo of s.separacion ?? [])
      percepciones.push({
        tipo,
        clave: `S${tipo}`,
        concepto: 'Separación',
        importeGravado: '45000.00',
        importeExento: '12500.75',
      });
    if (s.jubilacion)
      percepciones.push({
        tipo: s.jubilacion,
        clave: `J${s.jubilacion}`,
        concepto: 'Pensión',
        importeGravado: '18000.00',
        importeExento: '2500.00',
      });
    const otrosPagos: NominaOtroPago[] = g.otros.map((o, i) => ({
      tipo: o.tipo,
      clave: `O${i}X`,
      concepto: `Otro pago ${o.tipo}`,
      importe: money(o.imp),
    }));
    if (salaried && g.subsidio && subsidyCap >= 1) {
      const causado = Math.min(g.subsidio.paid + g.subsidio.extra, subsidyCap);
      otrosPagos.push({
        tipo: '002',
        clave: 'SUB',
        concepto: 'Subsidio para el empleo',
        importe: money(Math.min(g.subsidio.paid, causado)),
        subsidioCausado: money(causado),
      });
    }
    if (s.compensacion)
      otrosPagos.push({
        tipo: '004',
        clave: 'CSF',
        concepto: 'Compensación',
        importe: '300.00',
        compensacionSaldosAFavor: { saldoAFavor: '1000.00', anio: 2025, remanenteSalFav: '700.00' },
      });
    if (!percepciones.length && !otrosPagos.length)
      percepciones.push({
        tipo: '001',
        clave: '001',
        concepto: 'Sueldo',
        importeGravado: '7000.00',
        importeExento: '0.00',
      });
    // Deductions never exceed what is paid: scale them into half of the paid amount.
    const paidCents = Math.round(
      [
        ...percepciones.map((p) => Number(p.importeGravado) + Number(p.importeExento)),
        ...otrosPagos.map((o) => Number(o.importe)),
      ].reduce((a, b) => a + b, 0) * 100,
    );
    const wanted = [
      ...g.deducciones.map((d) => ({ tipo: d.tipo, imp: d.imp })),
      ...(g.isr ? [{ tipo: '002', imp: g.isr }] : []),
    ];
    const wantedCents = wanted.reduce((a, d) => a + d.imp, 0);
    const room = Math.max(0, Math.floor(paidCents / 2) - (s.incapacidad === 'deduccion' ? 55_030 : 0));
    const deducciones = wanted
      .map((d, i) => ({
        tipo: d.tipo,
        clave: `D${String(i).padStart(2, '0')}`,
        concepto: d.tipo === '002' ? 'ISR' : 'Deducción',
        imp: Math.max(1, wantedCents > room ? Math.floor((d.imp * room) / wantedCents) : d.imp),
      }))
      .filter(() => room > wanted.length)
      .map(({ imp, ...d }) => ({ ...d, importe: money(imp) }));
    if (s.incapacidad === 'deduccion' && paidCents > 2 * 55_030)
      deducciones.push({
        tipo: '006',
        clave: 'DIN',
        concepto: 'Descuento por incapacidad',
        importe: '550.30',
      });
    // Taxed income above the subsidy's income limit for the days paid owes ISR: withhold at least a centavo.
    const gravadoCents = percepciones.reduce((a, p) => a + Math.round(Number(p.importeGravado) * 100), 0);
    const limit = incomeLimitFor(subsidyRow, dec(g.extraordinaria ? 31 : dias));
    if (dec(gravadoCents).div(100).gt(limit) && !deducciones.some((d) => d.tipo === '002'))
      deducciones.push({ tipo: '002', clave: 'ISR', concepto: 'ISR', importe: '0.01' });
    const incapacidadUsed =
      percepciones.some((p) => p.tipo === '014') || deducciones.some((d) => d.tipo === '006');
    const registro = g.labour.registro;
    const input: NominaInput = {
      issuer: g.employer.issuer,
      ...(g.employer.curp ? { employerCurp: g.employer.curp } : {}),
      ...(registro ? { registroPatronal: 'B5510768108' } : {}),
      serie: 'N',
      folio: 1,
      employee: {
        ...g.worker,
        tipoContrato: g.labour.tipoContrato,
        tipoRegimen: g.labour.tipoRegimen,
        numEmpleado: 'E-120 & <1>',
        periodicidadPago: g.extraordinaria ? '99' : g.periodicidad,
        claveEntFed: g.state,
        ...g.optional,
        ...g.bank,
        ...(registro || g.antiguedadFormat
          ? {
              fechaInicioRelLaboral: fechaInicio,
              ...(g.antiguedadFormat ? { antiguedadFormat: g.antiguedadFormat as 'weeks' } : {}),
            }
          : {}),
        ...(registro
          ? {
              numSeguridadSocial: '04078873454',
              riesgoPuesto: g.riesgo,
              salarioDiarioIntegrado: money(g.sbc + 1234),
              salarioBaseCotApor: money(g.sbc),
            }
          : {}),
      },
      period: {
        tipoNomina: g.extraordinaria ? 'E' : 'O',
        fechaPago: fechaFinalPago,
        fechaInicialPago,
        fechaFinalPago,
        numDiasPagados: dias,
      },
      ...(percepciones.length ? { percepciones } : {}),
      ...(s.separacion?.length
        ? { separacionIndemnizacion: { numAniosServicio: 12, ultimoSueldoMensOrd: '30500.40' } }
        : {}),
      ...(s.jubilacion === '039' ? { jubilacionPensionRetiro: { ultimoSueldoMensOrd: '15000.00' } } : {}),
      ...(s.jubilacion === '044' ? { jubilacionPensionRetiro: { montoDiario: '683.33' } } : {}),
      ...(deducciones.length ? { deducciones } : {}),
      ...(otrosPagos.length ? { otrosPagos } : {}),
      ...(incapacidadUsed ? { incapacidades } : {}),
    };
    return { csd: g.employer.csd, input };
  });
