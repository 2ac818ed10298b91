import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT, UUID_PATTERN } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { Amount, DocumentStatusSchema, InvoiceSchema } from './documents';
import { named } from '../openapi-components';

const LocalDateTime = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$';
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const PaymentCreateSchema = named(
  'PaymentCreate',
  Type.Object(
    {
      monto: Amount({ description: 'Amount received in monedaP' }),
      formaPago: Type.String({
        pattern: '^[0-9]{2,3}$',
        description: 'How the money arrived (c_FormaPago); never 99',
      }),
      monedaP: Type.Optional(
        Type.String({ pattern: '^[A-Z]{3}$', description: 'c_Moneda received; default MXN' }),
      ),
      tipoCambioP: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          maximum: MAX_AMOUNT,
          description: 'MXN per monedaP; required unless MXN',
        }),
      ),
      equivalenciaDR: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          maximum: MAX_AMOUNT,
          description: "Invoice's currency per monedaP; required if they differ",
        }),
      ),
      impPagado: Type.Optional(
        Amount({ description: "In the invoice's currency; default monto × equivalenciaDR" }),
      ),
      fechaPago: Type.Optional(
        Type.String({
          pattern: LocalDateTime,
          description: 'Mexico City local time, no zone; default now; not in the future',
        }),
      ),
      numParcialidad: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 999,
          description: 'Default and only value: the next installment',
        }),
      ),
      customerId: Type.Optional(
        Type.String({
          minLength: 1,
          description:
            "A saved customer (cus_…) of the invoice's RFC whose current data the complement carries",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const CancelRequestSchema = named(
  'CancelRequest',
  Type.Object(
    {
      motivo: StringEnum(['01', '02', '03', '04'], {
        description:
          '01 with relation (needs folioSustitucion), 02 without relation, 03 not carried out, 04 in a global invoice',
      }),
      folioSustitucion: Type.Optional(
        Type.String({
          pattern: UUID_PATTERN.source,
          description: 'Motivo 01 only: UUID of the stamped replacement',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

/** `cancellation` of invoices and payments (design.md Documents); typed loosely like the views produce it. */
export const CancellationSchema = Type.Unsafe<Record<string, unknown> | null>(
  Type.Union([
    Type.Object({
      motivo: Type.String({ description: 'c_MotivoCancelacion asked: 01, 02, 03 or 04' }),
      folioSustitucion: Nullable(Type.String()),
      status: StringEnum(['pending', 'accepted', 'rejected'], {
        description: 'pending while the SAT (or the receiver) has not answered, then accepted or rejected',
      }),
      requestedAt: Timestamp,
      resolvedAt: Nullable(Timestamp),
      acuse: Type.Union([
        Type.Object({
          fecha: Type.String(),
          rfcEmisor: Type.String(),
          uuid: Type.String(),
          estatus: Type.String({ description: 'EstatusCancelacion the SAT reported with its answer' }),
          codigo: Type.String({
            description: 'EstatusUUID: 201 accepted, 202 requested or cancelled before',
          }),
          xmlUrl: Type.Optional(
            Type.String({ description: 'The SAT-signed acuse; signed URL valid 15 minutes' }),
          ),
        }),
        Type.Null(),
      ]),
    }),
    Type.Null(),
  ]),
);

export const PaymentSchema = named(
  'Payment',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('payment'),
    livemode: Type.Boolean(),
    status: DocumentStatusSchema,
    invoiceId: Type.String(),
    merchantId: Type.String(),
    customerId: Type.Union([Type.String(), Type.Null()], {
      description: 'The saved customer the receiver was copied from',
    }),
    uuid: Nullable(Type.String()),
    numParcialidad: Type.Integer(),
    monto: Type.Number(),
    formaPago: Type.String(),
    fechaPago: Type.String(),
    saldoAnterior: Type.Number(),
    impPagado: Type.Number(),
    saldoInsoluto: Type.Number(),
    currency: Type.String({ description: 'c_Moneda of monto (MonedaP)' }),
    tipoCambioP: Type.Union([Type.Number(), Type.Null()]),
    invoiceCurrency: Type.String(),
    equivalenciaDR: Type.Number(),
    files: InvoiceSchema.properties.files,
    cancellation: CancellationSchema,
    needsReconciliation: Type.Boolean(),
    failure: InvoiceSchema.properties.failure,
    stampedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  }),
);

/** Filters of `GET /v1/payments` and the list_payments tool. */
export const PaymentListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  invoiceId: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});
