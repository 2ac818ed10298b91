import { OptionalKind, Type, type Static } from '@sinclair/typebox';
import { MAX_AMOUNT, MAX_QUANTITY, UUID_PATTERN } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { named } from '../openapi-components';
import { CartaPorteSchema, CartaPorteSummarySchema } from './carta-porte';

const NoPipe = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^[^|]*$', description });
/** An amount in pesos: bounded so that a request like `unitPrice: 1e18` is a 400 before any computation. */
export const Amount = (options: { minimum?: number; description?: string } = {}) =>
  Type.Number({
    ...(options.minimum === undefined ? { exclusiveMinimum: 0 } : {}),
    maximum: MAX_AMOUNT,
    ...options,
  });
export const RfcPattern = '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$';

export const ReceiverSchema = named(
  'Receiver',
  Type.Object(
    {
      rfc: Type.String({
        pattern: RfcPattern,
        description: "The receiver's RFC; XAXX010101000 for the general public",
      }),
      name: Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'Exact registered name in capitals, without the corporate suffix',
      }),
      zip: Type.String({ pattern: '^[0-9]{5}$' }),
      regimenFiscal: Type.String({ pattern: '^[0-9]{3}$' }),
      residenciaFiscal: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{3}$',
          description:
            'Foreign receiver (RFC XEXX010101000) only: its country, a c_Pais key (USA, CAN, DEU…)',
        }),
      ),
      numRegIdTrib: Type.Optional(
        NoPipe(1, 40, 'Foreign receiver only: its tax id in its country (USA and CAN: 9 digits)'),
      ),
    },
    { additionalProperties: false },
  ),
);

const IvaRate = Type.Union([Type.Literal(0), Type.Literal(0.08), Type.Literal(0.16)]);

export const ItemSchema = named(
  'Item',
  Type.Object(
    {
      productCode: Type.String({ pattern: '^[0-9]{8}$' }),
      unitCode: Type.String({ minLength: 1, maxLength: 5 }),
      description: NoPipe(1, 1000, 'Descripcion of the line as printed'),
      quantity: Type.Number({ exclusiveMinimum: 0, maximum: MAX_QUANTITY }),
      unitPrice: Amount(),
      unit: Type.Optional(NoPipe(1, 20)),
      noIdentificacion: Type.Optional(NoPipe(1, 100, 'Printed under the description')),
      sku: Type.Optional(NoPipe(0, 100, 'Obsolete alias of noIdentificacion')),
      taxable: Type.Optional(Type.Boolean({ description: 'false marks the line exempt' })),
      ivaRate: Type.Optional(IvaRate),
      iepsRate: Type.Optional(Type.Number({ minimum: 0, maximum: 3 })),
      pedimentos: Type.Optional(
        Type.Array(
          Type.String({
            pattern: '^[0-9]{2} *[0-9]{2} *[0-9]{4} *[0-9]{7}$',
            description: '15 digits, with or without spaces',
          }),
          { minItems: 1, maxItems: 100 },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

const ProductItemSchema = named(
  'ProductItem',
  Type.Object(
    {
      productId: Type.String({
        minLength: 1,
        description: 'A saved product (prod_…): its keys, text, price and taxes',
      }),
      quantity: ItemSchema.properties.quantity,
      unitPrice: Type.Optional(
        Amount({ description: "Instead of the product's price, in the document's pricesIncludeTax sense" }),
      ),
      description: Type.Optional(NoPipe(1, 1000, "Instead of the product's description")),
    },
    { additionalProperties: false },
  ),
);

/**
 * An item in full or made from a saved product, told apart by `productId`. Validated with if/then/else so a wrong
 * item is told only what its own shape lacks; published as `anyOf` of the two (openapi.ts), which means the same.
 */
const DocumentItemSchema = named(
  'DocumentItem',
  Type.Unsafe<Static<typeof ItemSchema> | Static<typeof ProductItemSchema>>({
    if: { type: 'object', required: ['productId'] },
    then: ProductItemSchema,
    else: ItemSchema,
  }),
);

const Items = Type.Array(DocumentItemSchema, { minItems: 1, maxItems: 500 });
export const CustomerId = Type.String({
  minLength: 1,
  description: 'A saved customer (cus_…) instead of receiver: its fiscal data is copied into the document',
});

export const UuidString = Type.String({
  pattern: UUID_PATTERN.source,
});
const RelatedDocumentsSchema = named(
  'RelatedDocuments',
  Type.Object(
    {
      tipoRelacion: StringEnum(['01', '02', '03', '04', '06', '07'], {
        description: 'c_TipoRelacion key an income CFDI may carry',
      }),
      uuids: Type.Array(UuidString, { minItems: 1, maxItems: 100 }),
    },
    { additionalProperties: false },
  ),
);

const Domicilio = (issuer: boolean) =>
  Type.Object(
    {
      calle: NoPipe(1, 100),
      numeroExterior: Type.Optional(NoPipe(1, 55)),
      numeroInterior: Type.Optional(NoPipe(1, 55)),
      colonia: Type.Optional(NoPipe(1, 120, issuer ? 'c_Colonia key (4 digits)' : undefined)),
      localidad: Type.Optional(NoPipe(1, 120, issuer ? 'c_Localidad key (2 digits)' : undefined)),
      referencia: Type.Optional(NoPipe(1, 250)),
      municipio: Type.Optional(NoPipe(1, 120, issuer ? 'c_Municipio key (3 digits)' : undefined)),
      estado: NoPipe(
        1,
        30,
        issuer ? 'c_Estado key, e.g. JAL' : 'State (c_Estado key in USA and CAN, e.g. TX)',
      ),
      ...(issuer ? {} : { pais: Type.String({ pattern: '^[A-Z]{3}$', description: 'c_Pais key' }) }),
      codigoPostal: NoPipe(1, 12, issuer ? 'c_CodigoPostal (5 digits)' : undefined),
    },
    { additionalProperties: false },
  );

/** Comercio Exterior 2.0 (exportacion 02): the complement of an export of goods, ClaveDePedimento A1. */
const ComercioExteriorSchema = Type.Object(
  {
    incoterm: Type.String({
      minLength: 3,
      maxLength: 3,
      description: 'c_INCOTERM key (FOB, CIF, DAP, EXW…)',
    }),
    numCertificadoOrigen: Type.Optional(
      NoPipe(6, 40, 'Certificate of origin number; given, CertificadoOrigen is 1, else 0'),
    ),
    numeroExportadorConfiable: Type.Optional(NoPipe(1, 50)),
    observaciones: Type.Optional(NoPipe(1, 300)),
    tipoCambioUSD: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_AMOUNT,
        description:
          'MXN per USD, up to 6 decimals; with moneda USD it defaults to (and must equal) tipoCambio',
      }),
    ),
    totalUSD: Type.Optional(
      Amount({ minimum: 0, description: 'Σ valorDolares; computed when left out, checked when sent' }),
    ),
    emisor: Type.Object(
      { curp: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{18}$' })), domicilio: Domicilio(true) },
      { additionalProperties: false },
    ),
    receptor: Type.Object({ domicilio: Domicilio(false) }, { additionalProperties: false }),
    destinatarios: Type.Optional(
      Type.Array(
        Type.Object(
          {
            numRegIdTrib: Type.Optional(NoPipe(6, 40)),
            nombre: Type.Optional(NoPipe(1, 300)),
            domicilios: Type.Array(Domicilio(false), { minItems: 1, maxItems: 20 }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20 },
      ),
    ),
    mercancias: Type.Array(
      Type.Object(
        {
          noIdentificacion: NoPipe(1, 100, "The item's noIdentificacion this good is"),
          fraccionArancelaria: Type.String({
            pattern: '^[0-9]{8,10}$',
            description: 'c_FraccionArancelaria key (TIGIE fracción + NICO)',
          }),
          cantidadAduana: Type.Number({
            exclusiveMinimum: 0,
            maximum: MAX_QUANTITY,
            description: 'Up to 3 decimals',
          }),
          unidadAduana: Type.String({
            pattern: '^[0-9]{2}$',
            description: 'c_UnidadAduana key (01 kilo, 06 pieza…)',
          }),
          valorUnitarioAduana: Amount({ minimum: 0, description: 'USD per unidadAduana, up to 6 decimals' }),
          valorDolares: Type.Optional(
            Amount({
              minimum: 0,
              description:
                'cantidadAduana × valorUnitarioAduana rounded to 2 decimals; computed when left out',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

/** `status: "draft"` on a create body: the document is stored as a draft instead of stamped. */
const DraftStatus = Type.Literal('draft', {
  description: 'Store a draft, not stamped: validated and totalled, no folio or timbre until stamped',
});

export const InvoiceCreateSchema = named(
  'InvoiceCreate',
  Type.Object(
    {
      status: Type.Optional(DraftStatus),
      merchantId: Type.String({ minLength: 1 }),
      metodoPago: Type.Optional(Type.Union([Type.Literal('PUE'), Type.Literal('PPD')])),
      formaPago: Type.String({ pattern: '^[0-9]{2,3}$' }),
      usoCfdi: Type.Optional(
        Type.String({
          minLength: 2,
          maxLength: 4,
          description: "Required, unless the customer's default applies",
        }),
      ),
      folio: Type.Optional(NoPipe(1, 40, 'Display folio; the internal numeric folio is still assigned')),
      receiver: Type.Optional(ReceiverSchema),
      customerId: Type.Optional(CustomerId),
      items: Items,
      shipping: Type.Optional(
        Type.Object(
          {
            amount: Amount({ description: "Shipping charged, in the invoice's currency" }),
            ivaRate: Type.Optional(IvaRate),
            productCode: Type.Optional(Type.String({ pattern: '^[0-9]{8}$' })),
            unitCode: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
          },
          { additionalProperties: false },
        ),
      ),
      pricesIncludeTax: Type.Optional(Type.Boolean()),
      cartDiscount: Type.Optional(Amount({ minimum: 0 })),
      informacionGlobal: Type.Optional(
        Type.Object(
          {
            periodicidad: StringEnum(['01', '02', '03', '04', '05']),
            meses: Type.String({ pattern: '^(0[1-9]|1[0-8])$' }),
            anio: Type.Integer({ minimum: 2022, maximum: 2100 }),
          },
          { additionalProperties: false },
        ),
      ),
      relatedDocuments: Type.Optional(
        Type.Array(RelatedDocumentsSchema, {
          minItems: 1,
          maxItems: 6,
          description:
            'CfdiRelacionados, one entry per c_TipoRelacion key: 04 replaces a CFDI (then cancel it with motive 01 and this UUID as folioSustitucion), 07 an advance applied',
        }),
      ),
      moneda: Type.Optional(
        Type.String({
          pattern: '^[A-Z]{3}$',
          description:
            "c_Moneda key, default MXN (credit notes: the invoice's); another (USD, EUR…) needs tipoCambio, and amounts are in it, rounded to its decimals",
        }),
      ),
      tipoCambio: Type.Optional(
        Type.Number({
          exclusiveMinimum: 0,
          maximum: MAX_AMOUNT,
          description: 'MXN per unit of moneda, up to 6 decimals; required unless moneda is MXN',
        }),
      ),
      exportacion: Type.Optional(
        StringEnum(['01', '02'], {
          description:
            'c_Exportacion: 01 no aplica (default), 02 definitive export A1, with comercioExterior',
        }),
      ),
      comercioExterior: Type.Optional(ComercioExteriorSchema),
      cartaPorte: Type.Optional(CartaPorteSchema),
    },
    { additionalProperties: false },
  ),
);

export const CreditNoteCreateSchema = named(
  'CreditNoteCreate',
  Type.Object(
    {
      status: Type.Optional(DraftStatus),
      merchantId: Type.String({ minLength: 1 }),
      relatedInvoiceId: Type.Optional(Type.String({ minLength: 1 })),
      relatedUuid: Type.Optional(
        Type.String({
          pattern: UUID_PATTERN.source,
        }),
      ),
      tipoRelacion: Type.Optional(Type.Union([Type.Literal('01'), Type.Literal('03')])),
      usoCfdi: Type.Optional(Type.String({ minLength: 2, maxLength: 4 })),
      formaPago: Type.String({ pattern: '^[0-9]{2,3}$' }),
      folio: Type.Optional(NoPipe(1, 40)),
      receiver: Type.Optional(ReceiverSchema),
      customerId: Type.Optional(CustomerId),
      items: Items,
      pricesIncludeTax: Type.Optional(Type.Boolean()),
      // The invoice's own schemas: the MCP listing shares them by pointer (its 40 KB budget).
      moneda: InvoiceCreateSchema.properties.moneda,
      tipoCambio: InvoiceCreateSchema.properties.tipoCambio,
    },
    { additionalProperties: false },
  ),
);

export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Required: 1 to 255 characters' })),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Files = named(
  'DocumentFiles',
  Type.Object({
    status: StringEnum(['pending', 'processing', 'ready', 'failed'], {
      description: 'pending until stamped, processing while the PDF is made, ready (URLs present), failed',
    }),
    xmlUrl: Type.Optional(Type.String()),
    pdfUrl: Type.Optional(Type.String()),
    zipUrl: Type.Optional(Type.String()),
  }),
);
export const DocumentStatusSchema = StringEnum(
  ['draft', 'stamping', 'stamped', 'stamp_failed', 'cancel_pending', 'cancelled'],
  {
    description:
      'draft (editable), stamping (at the PAC), stamped, stamp_failed (see failure), cancel_pending (asked of the SAT), cancelled',
  },
);
const Status = DocumentStatusSchema;
const DocumentKindSchema = Type.Union(
  [Type.Literal('nominal'), Type.Literal('global'), Type.Literal('credit_note')],
  {
    description: 'nominal (one receiver), global (sales to the general public) or credit_note (egreso)',
  },
);
const Failure = Type.Object({
  code: Type.Union([Type.String(), Type.Null()], { description: 'The PAC or SAT error code' }),
  message: Type.Union([Type.String(), Type.Null()], { description: 'The PAC or SAT message' }),
});
const AnyObjectOrNull = Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]);

export const InvoiceSchema = named(
  'Invoice',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('invoice'),
    livemode: Type.Boolean(),
    status: Status,
    kind: DocumentKindSchema,
    uuid: Nullable(Type.String()),
    serie: Type.String(),
    folio: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Null on a draft: assigned when it is stamped',
    }),
    folioText: Nullable(Type.String()),
    metodoPago: Type.String(),
    formaPago: Type.String(),
    usoCfdi: Type.String(),
    currency: Type.String(),
    subtotal: Type.Number(),
    discount: Type.Number(),
    total: Type.Number({
      description: 'Total in the currency: subtotal - discount + taxes transferred - taxes withheld',
    }),
    saldoPendiente: Type.Union([Type.Number(), Type.Null()]),
    tipoRelacion: Type.Optional(Type.String()),
    relatedUuid: Type.Optional(Type.String()),
    relatedInvoiceId: Type.Optional(Nullable(Type.String())),
    relatedDocuments: Type.Optional(
      Type.Array(Type.Object({ tipoRelacion: Type.String(), uuids: Type.Array(Type.String()) })),
    ),
    tipoCambio: Type.Optional(Type.Number({ description: 'MXN per unit of currency; absent for MXN' })),
    exportacion: Type.Optional(Type.Literal('02', { description: 'Present on exports only' })),
    comercioExterior: Type.Optional(
      Type.Object({
        incoterm: Nullable(Type.String()),
        numCertificadoOrigen: Nullable(Type.String()),
        tipoCambioUSD: Type.Number(),
        totalUSD: Type.Number(),
      }),
    ),
    cartaPorte: Type.Optional(CartaPorteSummarySchema),
    receiver: Type.Object({
      rfc: Type.String({ description: "The receiver's RFC" }),
      name: Type.String({ description: "The receiver's registered name" }),
      zip: Type.String(),
      regimenFiscal: Type.String(),
      residenciaFiscal: Type.Optional(Type.String()),
      numRegIdTrib: Type.Optional(Type.String()),
    }),
    customerId: Type.Union([Type.String(), Type.Null()], {
      description:
        'The saved customer the receiver was copied from; the receiver above is what the CFDI carries',
    }),
    merchantId: Type.String(),
    files: Files,
    cancellation: AnyObjectOrNull,
    needsReconciliation: Type.Boolean(),
    failure: Type.Union([Failure, Type.Null()]),
    stampedAt: Nullable(Timestamp),
    createdAt: Timestamp,
  }),
);

/** The 202 shape while `stamping`. */
export const StampingSchema = named(
  'StampingDocument',
  Type.Object({
    id: Type.String(),
    object: Type.String(),
    livemode: Type.Boolean(),
    status: Status,
    kind: Type.Optional(Type.String({ description: 'nominal, global or credit_note for invoices' })),
    uuid: Type.Null({ description: 'Null until stamped' }),
    files: Type.Object(
      { status: Type.Literal('pending', { description: 'No file before the stamp' }) },
      { description: 'The files, pending until stamped' },
    ),
    stampedAt: Type.Null(),
    createdAt: Timestamp,
  }),
);

/** Filters of `GET /v1/invoices` and the list_invoices tool. */
export const InvoiceListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  kind: Type.Optional(DocumentKindSchema),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  metodoPago: Type.Optional(Type.Union([Type.Literal('PUE'), Type.Literal('PPD')])),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});

/**
 * `PATCH /v1/invoices/{id}` (a draft): any field of the draft's create body (an invoice's or a credit note's). A field
 * given replaces the stored one whole (`items` and `receiver` too), null removes it; the merged body must then be a
 * valid create body of the draft's kind.
 */
export const DraftPatchSchema = named(
  'DraftUpdate',
  Type.Object(
    Object.fromEntries(
      Object.entries({ ...CreditNoteCreateSchema.properties, ...InvoiceCreateSchema.properties })
        .filter(([name]) => name !== 'status')
        .map(([name, schema]) => [
          name,
          Type.Optional(Type.Union([Type.Unsafe({ ...schema, [OptionalKind]: undefined }), Type.Null()])),
        ]),
    ),
    { additionalProperties: false, minProperties: 1 },
  ),
);
