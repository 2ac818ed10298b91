import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { DocumentStatusSchema, InvoiceSchema, RfcPattern, UuidString } from './documents';
import { CancellationSchema } from './payments';
import { named } from '../openapi-components';

/**
 * POST /v1/nominas: one payroll receipt (Nómina 1.2) per employee and period. Catalog keys and the SAT's NOM rules
 * are checked by the engine after this schema (400 with the field path and the NOM code).
 */
const NoPipe = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^[^|]*$', description });
const Key = (digits: number, description: string) =>
  Type.String({ pattern: `^[0-9]{${digits}}$`, description });
const IsoDate = (description: string) =>
  Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description });
/** Every payroll amount is bounded as invoice amounts are (MAX_AMOUNT); decimals are checked by the engine. */
const Money = (description?: string) =>
  Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: description ?? 'MXN, at most 2 decimals' });
const Positive = (description?: string) =>
  Type.Number({
    exclusiveMinimum: 0,
    maximum: MAX_AMOUNT,
    description: description ?? 'MXN, at most 2 decimals',
  });
const CurpPattern =
  '^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])[MH]([ABCMTZ]S|[BCJMOT]C|[CNPST]L|[GNQ]T|[GQS]R|C[MH]|[MY]N|[DH]F|NE|VZ|DG|SP|BC|SL|TS)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$';
const Concept = { clave: NoPipe(3, 15, "The employer's own code for the concept"), concepto: NoPipe(1, 100) };

const EmployeeSchema = named(
  'Employee',
  Type.Object(
    {
      rfc: Type.String({ pattern: RfcPattern, description: "The employee's RFC (13 characters)" }),
      name: Type.String({ minLength: 1, maxLength: 300, description: 'Exact registered name in capitals' }),
      zip: Type.String({
        pattern: '^[0-9]{5}$',
        description: "Fiscal postal code of the employee's constancia",
      }),
      curp: Type.String({ pattern: CurpPattern }),
      numSeguridadSocial: Type.Optional(
        Type.String({ pattern: '^[0-9]{1,15}$', description: 'NSS; required with a registro patronal' }),
      ),
      fechaInicioRelLaboral: Type.Optional(
        IsoDate(
          'Start of the employment; the Antigüedad is computed from it. Required with a registro patronal',
        ),
      ),
      antiguedadFormat: Type.Optional(
        StringEnum(['weeks', 'ymd'], { description: 'Antigüedad as P<weeks>W (default) or P<y>Y<m>M<d>D' }),
      ),
      tipoContrato: Key(2, 'c_TipoContrato'),
      sindicalizado: Type.Optional(Type.Boolean()),
      tipoJornada: Type.Optional(Key(2, 'c_TipoJornada')),
      tipoRegimen: Key(2, 'c_TipoRegimen'),
      numEmpleado: NoPipe(1, 15),
      departamento: Type.Optional(NoPipe(1, 100)),
      puesto: Type.Optional(NoPipe(1, 100)),
      riesgoPuesto: Type.Optional(
        Type.String({
          pattern: '^([1-5]|99)$',
          description: 'c_RiesgoPuesto; required with a registro patronal',
        }),
      ),
      periodicidadPago: Key(2, 'c_PeriodicidadPago; 99 for an extraordinary payroll'),
      banco: Type.Optional(
        Key(3, 'c_Banco; required with a 10, 11 or 16 digit account, refused with a CLABE'),
      ),
      cuentaBancaria: Type.Optional(
        Type.String({
          pattern: '^[0-9]{10,18}$',
          description: '10 (phone), 11 (account), 16 (card) or 18 (CLABE) digits',
        }),
      ),
      salarioBaseCotApor: Type.Optional(Money('SBC')),
      salarioDiarioIntegrado: Type.Optional(Money('SDI; required with a registro patronal')),
      claveEntFed: Type.String({
        pattern: '^[A-Z]{2,3}$',
        description: 'c_Estado of the state where the work is done (AGU … ZAC, CMX)',
      }),
    },
    { additionalProperties: false },
  ),
);

const PeriodSchema = named(
  'NominaPeriod',
  Type.Object(
    {
      tipoNomina: StringEnum(['O', 'E'], {
        description: 'O ordinaria, E extraordinaria (aguinaldo, PTU, finiquito…)',
      }),
      fechaPago: IsoDate('Payment date'),
      fechaInicialPago: IsoDate('First day of the period paid'),
      fechaFinalPago: IsoDate('Last day of the period paid'),
      numDiasPagados: Type.Number({
        minimum: 0.001,
        maximum: 36160,
        description: 'Days paid, up to 3 decimals',
      }),
    },
    { additionalProperties: false },
  ),
);

const PercepcionSchema = named(
  'Percepcion',
  Type.Object(
    {
      tipo: Key(3, 'c_TipoPercepcion'),
      ...Concept,
      importeGravado: Money(),
      importeExento: Money(),
      horasExtra: Type.Optional(
        Type.Array(
          Type.Object(
            {
              dias: Type.Integer({ minimum: 1 }),
              tipoHoras: StringEnum(['01', '02', '03'], { description: '01 dobles, 02 triples, 03 simples' }),
              horasExtra: Type.Integer({ minimum: 1 }),
              importePagado: Positive(),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: 100, description: 'Required for 019 (horas extra)' },
        ),
      ),
      accionesOTitulos: Type.Optional(
        Type.Object(
          {
            valorMercado: Positive('Up to 6 decimals'),
            precioAlOtorgarse: Positive('Up to 6 decimals'),
          },
          { additionalProperties: false, description: 'Required for 045' },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const DeduccionSchema = named(
  'Deduccion',
  Type.Object(
    { tipo: Key(3, 'c_TipoDeduccion; 002 is the ISR withheld'), ...Concept, importe: Positive() },
    { additionalProperties: false },
  ),
);

const OtroPagoSchema = named(
  'OtroPago',
  Type.Object(
    {
      tipo: Key(3, 'c_TipoOtroPago; 002 subsidio para el empleo'),
      ...Concept,
      importe: Positive(),
      subsidioCausado: Type.Optional(
        Positive('Required for 002: the subsidy the employee was entitled to (≥ importe)'),
      ),
      compensacionSaldosAFavor: Type.Optional(
        Type.Object(
          {
            saldoAFavor: Positive(),
            anio: Type.Integer({ minimum: 2016, maximum: 2100 }),
            remanenteSalFav: Money(),
          },
          { additionalProperties: false, description: 'Required for 004' },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const IncapacidadSchema = named(
  'Incapacidad',
  Type.Object(
    {
      dias: Type.Integer({ minimum: 1 }),
      tipo: Key(2, 'c_TipoIncapacidad'),
      importe: Type.Optional(Money()),
    },
    { additionalProperties: false },
  ),
);

/** The receipt itself, shared by the single and the batch request. */
const receiptFields = {
  folio: Type.Optional(NoPipe(1, 40, 'Display folio; the internal numeric folio is still assigned')),
  registroPatronal: Type.Optional(
    NoPipe(1, 20, "The employer's IMSS registration; required for contract types 01-08"),
  ),
  employerCurp: Type.Optional(
    Type.String({
      pattern: CurpPattern,
      description: 'Required when the employer is a person (13-character RFC)',
    }),
  ),
  employee: EmployeeSchema,
  period: PeriodSchema,
  percepciones: Type.Optional(Type.Array(PercepcionSchema, { minItems: 1, maxItems: 200 })),
  separacionIndemnizacion: Type.Optional(
    Type.Object(
      {
        numAniosServicio: Type.Integer({ minimum: 0, maximum: 99 }),
        ultimoSueldoMensOrd: Money(),
      },
      { additionalProperties: false, description: 'Required with percepciones 022, 023 or 025' },
    ),
  ),
  jubilacionPensionRetiro: Type.Optional(
    Type.Object(
      {
        ultimoSueldoMensOrd: Type.Optional(Money('Required with 039 (one payment)')),
        montoDiario: Type.Optional(Positive('Required with 044 (installments)')),
      },
      { additionalProperties: false, description: 'Required with percepciones 039 or 044' },
    ),
  ),
  deducciones: Type.Optional(Type.Array(DeduccionSchema, { minItems: 1, maxItems: 200 })),
  otrosPagos: Type.Optional(Type.Array(OtroPagoSchema, { minItems: 1, maxItems: 50 })),
  incapacidades: Type.Optional(Type.Array(IncapacidadSchema, { minItems: 1, maxItems: 50 })),
  relatedDocuments: Type.Optional(
    Type.Array(
      Type.Object(
        {
          tipoRelacion: StringEnum(['04'], {
            description: 'c_TipoRelacion: 04 sustitución de los CFDI previos',
          }),
          uuids: Type.Array(UuidString, { minItems: 1, maxItems: 100 }),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: 1,
        description:
          'The stamped payroll receipts of this employer this one replaces; then cancel them with motive 01 and this UUID',
      },
    ),
  ),
};

export const NominaCreateSchema = named(
  'NominaCreate',
  Type.Object(
    { merchantId: Type.String({ minLength: 1 }), ...receiptFields },
    { additionalProperties: false },
  ),
);

export const NominaBatchCreateSchema = named(
  'NominaBatchCreate',
  Type.Object(
    {
      merchantId: Type.String({ minLength: 1, description: 'The employer of every receipt' }),
      nominas: Type.Array(Type.Object(receiptFields, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 1000,
      }),
    },
    { additionalProperties: false },
  ),
);

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const NominaSchema = named(
  'Nomina',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('nomina'),
    livemode: Type.Boolean(),
    status: DocumentStatusSchema,
    uuid: NullableString,
    serie: Type.String(),
    folio: Type.Integer(),
    folioText: NullableString,
    merchantId: Type.String(),
    registroPatronal: NullableString,
    employee: Type.Object({
      rfc: Type.String({ description: "The employee's RFC" }),
      name: Type.String({ description: "The employee's registered name" }),
      curp: Type.String(),
      numEmpleado: Type.String(),
      numSeguridadSocial: NullableString,
      departamento: NullableString,
      puesto: NullableString,
      tipoContrato: Type.String(),
      tipoRegimen: Type.String(),
      periodicidadPago: Type.String(),
    }),
    period: Type.Object({
      tipoNomina: Type.String(),
      fechaPago: Type.String(),
      fechaInicialPago: Type.String(),
      fechaFinalPago: Type.String(),
      numDiasPagados: Type.Number(),
    }),
    totals: Type.Object({
      totalPercepciones: NullableNumber,
      totalSueldos: NullableNumber,
      totalSeparacionIndemnizacion: NullableNumber,
      totalJubilacionPensionRetiro: NullableNumber,
      totalGravado: Type.Number(),
      totalExento: Type.Number(),
      totalDeducciones: NullableNumber,
      totalOtrasDeducciones: NullableNumber,
      totalImpuestosRetenidos: NullableNumber,
      totalOtrosPagos: NullableNumber,
    }),
    currency: Type.String(),
    subtotal: Type.Number({ description: 'TotalPercepciones + TotalOtrosPagos' }),
    discount: Type.Number({ description: 'TotalDeducciones' }),
    total: Type.Number({ description: 'Net pay' }),
    relatedDocuments: Type.Optional(
      Type.Array(Type.Object({ tipoRelacion: Type.String(), uuids: Type.Array(Type.String()) })),
    ),
    files: InvoiceSchema.properties.files,
    cancellation: CancellationSchema,
    needsReconciliation: Type.Boolean(),
    failure: InvoiceSchema.properties.failure,
    stampedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
  }),
);

export const NominaBatchSchema = named(
  'NominaBatch',
  Type.Object({
    object: Type.Literal('nomina_batch'),
    livemode: Type.Boolean(),
    merchantId: Type.String(),
    summary: Type.Object(
      {
        total: Type.Integer({ description: 'Receipts in the request' }),
        stamped: Type.Integer({ description: 'Receipts stamped (201)' }),
        stamping: Type.Integer({ description: 'Receipts still stamping (202)' }),
        failed: Type.Integer({ description: 'Receipts refused or failed' }),
      },
      { description: 'How many receipts ended how' },
    ),
    data: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'Position of the receipt in the request' }),
        status: Type.Integer({
          description: 'The HTTP status POST /v1/nominas would have answered for this receipt',
        }),
        id: Type.Union([Type.String(), Type.Null()], {
          description: 'The receipt (nom_…); null when refused',
        }),
        nomina: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
          description: 'The Nómina (201) or its reduced shape while stamping (202)',
        }),
        error: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
          description: 'The problem (400, 402, 422, 503…) for a receipt that was not stamped',
        }),
      }),
      { description: 'One entry per receipt, in the order of the request' },
    ),
  }),
);

/** Filters of `GET /v1/nominas` and the list_nominas tool. */
export const NominaListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  employeeRfc: Type.Optional(Type.String({ pattern: RfcPattern, description: "The employee's RFC" })),
  paymentDateFrom: Type.Optional(IsoDate('FechaPago on or after (YYYY-MM-DD)')),
  paymentDateTo: Type.Optional(IsoDate('FechaPago on or before (YYYY-MM-DD)')),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});
