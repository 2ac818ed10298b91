import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { DocumentStatusSchema, InvoiceSchema, RfcPattern, UuidString } from './documents';
import { CancellationSchema } from './payments';
import { named } from '../openapi-components';

/**
 * POST /v1/retentions: one Retenciones 2.0 withholding certificate (CFDI de retenciones e información de pagos). The
 * shapes are checked here; catalog keys, the receiver's rules, the period and the sums are checked by the engine
 * (`validateRetentionRequest`), each failure a 400 with its field path.
 */
const Money = (description: string) =>
  Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: `${description}; MXN, at most 2 decimals` });
const Key = (digits: number, description: string) =>
  Type.String({ pattern: `^[0-9]{${digits}}$`, description });
const NoPipe = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[^|]*$', description });
const Month = (description: string) => Type.Integer({ minimum: 1, maximum: 12, description });

const RetentionReceiverSchema = named(
  'RetentionReceiver',
  Type.Object(
    {
      nacionalidad: StringEnum(['Nacional', 'Extranjero'], {
        description: 'NacionalidadR: Nacional (a Mexican taxpayer, with RFC and fiscal zip) or Extranjero',
      }),
      rfc: Type.Optional(
        Type.String({
          pattern: RfcPattern,
          description: 'RfcR of a Nacional receiver: its own RFC, not a generic one nor the issuer’s',
        }),
      ),
      name: NoPipe(300, 'NomDenRazSocR: registered name (Nacional ≤ 254 characters, Extranjero ≤ 300)'),
      zip: Type.Optional(
        Type.String({
          pattern: '^[0-9]{5}$',
          description: 'DomicilioFiscalR of a Nacional receiver: the postal code of its fiscal domicile',
        }),
      ),
      curp: Type.Optional(
        Type.String({ minLength: 18, maxLength: 18, description: 'CurpR of a Nacional person (optional)' }),
      ),
      numRegIdTrib: Type.Optional(
        NoPipe(20, 'NumRegIdTribR: tax id of an Extranjero receiver in its country (optional)'),
      ),
    },
    {
      additionalProperties: false,
      description:
        'The receiver (Receptor) the taxes were withheld from: Nacional with its rfc and zip, or Extranjero',
    },
  ),
);

const RetentionPeriodSchema = named(
  'RetentionPeriod',
  Type.Object(
    {
      mesIni: Month('MesIni: first month covered (1-12)'),
      mesFin: Month('MesFin: last month covered (1-12, not before mesIni)'),
      ejercicio: Type.Integer({
        minimum: 2019,
        maximum: 2100,
        description: 'Ejercicio: the fiscal year (c_Ejercicio), not after the year of issue',
      }),
    },
    {
      additionalProperties: false,
      description: 'Periodo: the months of one fiscal year the certificate covers',
    },
  ),
);

const RetentionTotalsInputSchema = named(
  'RetentionTotalsInput',
  Type.Object(
    {
      montoTotGrav: Money('MontoTotGrav: the taxed part of the operation'),
      montoTotExent: Money('MontoTotExent: the exempt part of the operation'),
      montoTotOperacion: Type.Optional(
        Money('MontoTotOperacion: computed as montoTotGrav + montoTotExent; refused when sent and different'),
      ),
      montoTotRet: Type.Optional(
        Money('MontoTotRet: computed as the sum of withholdings[].montoRet; refused when sent and different'),
      ),
      utilidadBimestral: Type.Optional(Money('UtilidadBimestral (optional)')),
      isrCorrespondiente: Type.Optional(Money('ISRCorrespondiente (optional)')),
    },
    {
      additionalProperties: false,
      description: 'Totales of the operation; montoTotOperacion and montoTotRet are computed by the server',
    },
  ),
);

const WithholdingSchema = named(
  'RetentionWithholding',
  Type.Object(
    {
      baseRet: Type.Optional(Money('BaseRet: the base the tax was withheld on (optional)')),
      impuestoRet: Type.Optional(
        StringEnum(['001', '002', '003'], {
          description: 'ImpuestoRet (c_Impuesto): 001 ISR, 002 IVA, 003 IEPS',
        }),
      ),
      montoRet: Money('MontoRet: the amount withheld'),
      tipoPagoRet: Key(2, 'TipoPagoRet (c_TipoPagoRet 01-04): how the withheld tax was paid'),
    },
    { additionalProperties: false, description: 'ImpRetenidos: one tax withheld' },
  ),
);

export const RetentionCreateSchema = named(
  'RetentionCreate',
  Type.Object(
    {
      merchantId: Type.String({
        minLength: 1,
        description: 'The merchant that withheld (the Emisor): mch_…',
      }),
      folioInt: Type.Optional(
        Type.String({
          pattern: '^[0-9a-zA-Z]{1,20}$',
          description:
            'FolioInt: the issuer’s own folio (letters or digits); default the certificate’s folio',
        }),
      ),
      cveRetenc: Key(
        2,
        'CveRetenc (c_CveRetenc 01-28): what the payment was (14 dividends, 16 interest, 25 other…)',
      ),
      descRetenc: Type.Optional(NoPipe(100, 'DescRetenc: what it was, required with cveRetenc 25')),
      related: Type.Optional(
        Type.Object(
          {
            tipoRelacion: Key(2, 'TipoRelacion (c_TipoRelacion): 04 replaces a previous certificate'),
            uuid: UuidString,
          },
          {
            additionalProperties: false,
            description:
              'CfdiRetenRelacionados: the certificate this one relates to (tipoRelacion 04: replaces it)',
          },
        ),
      ),
      receiver: RetentionReceiverSchema,
      period: RetentionPeriodSchema,
      totals: RetentionTotalsInputSchema,
      withholdings: Type.Optional(
        Type.Array(WithholdingSchema, {
          maxItems: 100,
          description:
            'ImpRetenidos: the taxes withheld (impuestoRet c_Impuesto, tipoPagoRet c_TipoPagoRet 01-04); none if nothing was',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const RetentionSchema = named(
  'Retention',
  Type.Object({
    id: Type.String({ description: 'The certificate: ret_…' }),
    object: Type.Literal('retention'),
    livemode: Type.Boolean(),
    status: DocumentStatusSchema,
    uuid: NullableString('Folio fiscal: the UUID of the SAT timbre; null until stamped'),
    folio: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Number of the certificate in the merchant’s RET series',
    }),
    folioInt: NullableString('FolioInt as stamped: the one sent, else the folio'),
    merchantId: Type.String(),
    cveRetenc: Type.String({ description: 'CveRetenc (c_CveRetenc)' }),
    descRetenc: NullableString('DescRetenc; null when none'),
    receiver: Type.Object(
      {
        nacionalidad: StringEnum(['Nacional', 'Extranjero'], { description: 'NacionalidadR' }),
        rfc: Type.Optional(Type.String({ description: 'RfcR (Nacional)' })),
        name: Type.String({ description: 'NomDenRazSocR' }),
        zip: Type.Optional(Type.String({ description: 'DomicilioFiscalR (Nacional)' })),
        curp: Type.Optional(NullableString('CurpR (Nacional); null when none')),
        numRegIdTrib: Type.Optional(NullableString('NumRegIdTribR (Extranjero); null when none')),
      },
      { description: 'The receiver the taxes were withheld from' },
    ),
    period: Type.Object(
      {
        mesIni: Type.Integer({ description: 'MesIni' }),
        mesFin: Type.Integer({ description: 'MesFin' }),
        ejercicio: Type.Integer({ description: 'Ejercicio' }),
      },
      { description: 'Periodo: the months covered' },
    ),
    totals: Type.Object(
      {
        montoTotOperacion: Type.Number({ description: 'MontoTotOperacion: montoTotGrav + montoTotExent' }),
        montoTotGrav: Type.Number({ description: 'MontoTotGrav' }),
        montoTotExent: Type.Number({ description: 'MontoTotExent' }),
        montoTotRet: Type.Number({ description: 'MontoTotRet: the sum withheld' }),
        utilidadBimestral: NullableNumber('UtilidadBimestral; null when none'),
        isrCorrespondiente: NullableNumber('ISRCorrespondiente; null when none'),
      },
      { description: 'Totales as stamped' },
    ),
    withholdings: Type.Array(
      Type.Object({
        baseRet: NullableNumber('BaseRet; null when none'),
        impuestoRet: NullableString('ImpuestoRet (c_Impuesto); null when none'),
        montoRet: Type.Number({ description: 'MontoRet' }),
        tipoPagoRet: Type.String({ description: 'TipoPagoRet (c_TipoPagoRet)' }),
      }),
      { description: 'ImpRetenidos: the taxes withheld' },
    ),
    related: Type.Union(
      [
        Type.Object({
          tipoRelacion: Type.String({ description: 'TipoRelacion' }),
          uuid: Type.String({ description: 'UUID of the related certificate' }),
        }),
        Type.Null(),
      ],
      { description: 'CfdiRetenRelacionados; null when none' },
    ),
    fechaExp: NullableString('FechaExp as sealed (Mexico City local time); null until sealed'),
    files: Type.Object(
      {
        status: InvoiceSchema.properties.files.properties.status,
        xmlUrl: Type.Optional(
          Type.String({ description: 'Signed URL of the stamped XML, valid 15 minutes; its only file' }),
        ),
      },
      { description: 'A certificate’s file is its stamped XML: it has no PDF or ZIP' },
    ),
    cancellation: CancellationSchema,
    needsReconciliation: Type.Boolean(),
    failure: InvoiceSchema.properties.failure,
    stampedAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
  }),
);

/** Filters of `GET /v1/retentions`. */
export const RetentionListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  receiverRfc: Type.Optional(
    Type.String({ pattern: RfcPattern, description: 'RfcR of a Nacional receiver' }),
  ),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});
