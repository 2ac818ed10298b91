import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT, MAX_QUANTITY } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';

const NoPipe = (min: number, max: number, description?: string) => Type.String({ minLength: min, maxLength: max, pattern: '^[^|]*$', description });
/** An amount in pesos: bounded so that a request like `unitPrice: 1e18` is a 400 before any computation. */
export const Amount = (options: { minimum?: number; description?: string } = {}) =>
  Type.Number({ ...(options.minimum === undefined ? { exclusiveMinimum: 0 } : {}), maximum: MAX_AMOUNT, ...options });
export const RfcPattern = '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$';

export const ReceiverSchema = Type.Object({
  rfc: Type.String({ pattern: RfcPattern }),
  name: Type.String({ minLength: 1, maxLength: 300, description: 'Exact registered name in capitals, without the corporate suffix' }),
  zip: Type.String({ pattern: '^[0-9]{5}$' }),
  regimenFiscal: Type.String({ pattern: '^[0-9]{3}$' }),
}, { additionalProperties: false });

const IvaRate = Type.Union([Type.Literal(0), Type.Literal(0.08), Type.Literal(0.16)]);

export const ItemSchema = Type.Object({
  productCode: Type.String({ pattern: '^[0-9]{8}$' }),
  unitCode: Type.String({ minLength: 1, maxLength: 5 }),
  description: NoPipe(1, 1000),
  quantity: Type.Number({ exclusiveMinimum: 0, maximum: MAX_QUANTITY }),
  unitPrice: Amount(),
  unit: Type.Optional(NoPipe(1, 20)),
  noIdentificacion: Type.Optional(NoPipe(1, 100, 'Printed under the description')),
  sku: Type.Optional(NoPipe(0, 100, 'Obsolete alias of noIdentificacion')),
  taxable: Type.Optional(Type.Boolean({ description: 'false marks the line exempt' })),
  ivaRate: Type.Optional(IvaRate),
  iepsRate: Type.Optional(Type.Number({ minimum: 0, maximum: 3 })),
  pedimentos: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]{2} *[0-9]{2} *[0-9]{4} *[0-9]{7}$', description: '15 digits, with or without spaces' }), { minItems: 1, maxItems: 100 })),
}, { additionalProperties: false });

const Items = Type.Array(ItemSchema, { minItems: 1, maxItems: 500 });

const UuidString = Type.String({ pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' });
export const RelatedDocumentsSchema = Type.Object({
  tipoRelacion: StringEnum(['01', '02', '03', '04', '06', '07'], { description: 'c_TipoRelacion key an income CFDI may carry' }),
  uuids: Type.Array(UuidString, { minItems: 1, maxItems: 100 }),
}, { additionalProperties: false });

export const InvoiceCreateSchema = Type.Object({
  merchantId: Type.String({ minLength: 1 }),
  metodoPago: Type.Optional(Type.Union([Type.Literal('PUE'), Type.Literal('PPD')])),
  formaPago: Type.String({ pattern: '^[0-9]{2,3}$' }),
  usoCfdi: Type.String({ minLength: 2, maxLength: 4 }),
  folio: Type.Optional(NoPipe(1, 40, 'Display folio; the internal numeric folio is still assigned')),
  receiver: ReceiverSchema,
  items: Items,
  shipping: Type.Optional(Type.Object({
    amount: Amount(),
    ivaRate: Type.Optional(IvaRate),
    productCode: Type.Optional(Type.String({ pattern: '^[0-9]{8}$' })),
    unitCode: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
  }, { additionalProperties: false })),
  pricesIncludeTax: Type.Optional(Type.Boolean()),
  cartDiscount: Type.Optional(Amount({ minimum: 0 })),
  informacionGlobal: Type.Optional(Type.Object({
    periodicidad: StringEnum(['01', '02', '03', '04', '05']),
    meses: Type.String({ pattern: '^(0[1-9]|1[0-8])$' }),
    anio: Type.Integer({ minimum: 2022, maximum: 2100 }),
  }, { additionalProperties: false })),
  relatedDocuments: Type.Optional(Type.Array(RelatedDocumentsSchema, {
    minItems: 1, maxItems: 6,
    description: 'CfdiRelacionados: one entry per c_TipoRelacion key, e.g. 04 for the CFDI this one replaces (then cancel that one with motive 01 and this UUID as folioSustitucion), 07 for an advance applied',
  })),
}, { additionalProperties: false });

export const CreditNoteCreateSchema = Type.Object({
  merchantId: Type.String({ minLength: 1 }),
  relatedInvoiceId: Type.Optional(Type.String({ minLength: 1 })),
  relatedUuid: Type.Optional(Type.String({ pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' })),
  tipoRelacion: Type.Optional(Type.Union([Type.Literal('01'), Type.Literal('03')])),
  usoCfdi: Type.Optional(Type.String({ minLength: 2, maxLength: 4 })),
  formaPago: Type.String({ pattern: '^[0-9]{2,3}$' }),
  folio: Type.Optional(NoPipe(1, 40)),
  receiver: Type.Optional(ReceiverSchema),
  items: Items,
  pricesIncludeTax: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Required: 1 to 255 characters' })),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Files = Type.Object({
  status: StringEnum(['pending', 'processing', 'ready', 'failed']),
  xmlUrl: Type.Optional(Type.String()),
  pdfUrl: Type.Optional(Type.String()),
  zipUrl: Type.Optional(Type.String()),
});
export const DocumentStatusSchema = StringEnum(['stamping', 'stamped', 'stamp_failed', 'cancel_pending', 'cancelled']);
const Status = DocumentStatusSchema;
const AnyObjectOrNull = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('invoice'),
  livemode: Type.Boolean(),
  status: Status,
  kind: Type.Union([Type.Literal('nominal'), Type.Literal('global'), Type.Literal('credit_note')]),
  uuid: Nullable(Type.String()),
  serie: Type.String(),
  folio: Type.Integer(),
  folioText: Nullable(Type.String()),
  metodoPago: Type.String(),
  formaPago: Type.String(),
  usoCfdi: Type.String(),
  currency: Type.String(),
  subtotal: Type.Number(),
  discount: Type.Number(),
  total: Type.Number(),
  saldoPendiente: Type.Union([Type.Number(), Type.Null()]),
  tipoRelacion: Type.Optional(Type.String()),
  relatedUuid: Type.Optional(Type.String()),
  relatedInvoiceId: Type.Optional(Nullable(Type.String())),
  relatedDocuments: Type.Optional(Type.Array(Type.Object({ tipoRelacion: Type.String(), uuids: Type.Array(Type.String()) }))),
  receiver: Type.Object({ rfc: Type.String(), name: Type.String(), zip: Type.String(), regimenFiscal: Type.String() }),
  merchantId: Type.String(),
  files: Files,
  cancellation: AnyObjectOrNull,
  needsReconciliation: Type.Boolean(),
  failure: Type.Union([Type.Object({ code: Nullable(Type.String()), message: Nullable(Type.String()) }), Type.Null()]),
  stampedAt: Nullable(Timestamp),
  createdAt: Timestamp,
});

/** The 202 shape while `stamping`. */
export const StampingSchema = Type.Object({
  id: Type.String(),
  object: Type.String(),
  livemode: Type.Boolean(),
  status: Status,
  kind: Type.Optional(Type.String()),
  uuid: Type.Null(),
  files: Type.Object({ status: Type.Literal('pending') }),
  stampedAt: Type.Null(),
  createdAt: Timestamp,
});

/** Filters of `GET /v1/invoices` and the list_invoices tool. */
export const InvoiceListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  kind: Type.Optional(Type.Union([Type.Literal('nominal'), Type.Literal('global'), Type.Literal('credit_note')])),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  metodoPago: Type.Optional(Type.Union([Type.Literal('PUE'), Type.Literal('PPD')])),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});
