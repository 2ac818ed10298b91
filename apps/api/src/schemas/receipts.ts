import { Type, type Static } from '@sinclair/typebox';
import { named } from '../openapi-components';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { CustomerId, ItemSchema, ReceiverSchema } from './documents';

const Text = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[^|]*$', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const ReceiptStatusSchema = StringEnum(['open', 'invoiced', 'in_global', 'cancelled'], {
  description:
    'open: the customer may still invoice it; invoiced: an invoice covers it; in_global: its period’s global invoice does; cancelled',
});

export const ReceiptCreateSchema = named(
  'ReceiptCreate',
  Type.Object(
    {
      merchantId: Type.String({ minLength: 1 }),
      items: Type.Array(ItemSchema, {
        minItems: 1,
        maxItems: 500,
        description:
          'What was sold, as an invoice’s items: they are the invoice’s when the receipt is invoiced',
      }),
      formaPago: Type.String({
        pattern: '^[0-9]{2,3}$',
        description: 'c_FormaPago key of the payment received (01 efectivo, 04 crédito, 28 débito…); not 99',
      }),
      pricesIncludeTax: Type.Optional(
        Type.Boolean({ description: 'Whether unitPrice includes IVA; default true' }),
      ),
      branch: Type.Optional(Text(100, 'The shop or till that sold, as you name it')),
      externalId: Type.Optional(Text(200, 'The sale’s id in your own system; list receipts by it')),
    },
    { additionalProperties: false },
  ),
);

export const ReceiptSchema = named(
  'Receipt',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('receipt'),
    livemode: Type.Boolean(),
    merchantId: Type.String(),
    key: Type.String({
      description:
        '16 characters (80 random bits) the customer types in the portal; printed in groups of four',
    }),
    selfInvoiceUrl: Type.String({ description: 'The portal page of this receipt (the ticket’s QR code)' }),
    status: ReceiptStatusSchema,
    items: Type.Array(ItemSchema),
    pricesIncludeTax: Type.Boolean(),
    formaPago: Type.String(),
    branch: Nullable(Type.String({ description: 'The shop or till that sold; null when not given' })),
    externalId: Nullable(
      Type.String({ description: 'The sale’s id in your own system; null when not given' }),
    ),
    subtotal: Type.String({ description: 'SubTotal of the invoice it becomes, as the tax engine writes it' }),
    total: Type.String({ description: 'What the customer paid' }),
    expiresAt: Type.String({
      format: 'date-time',
      description:
        'Until then the customer may invoice it; after it, it goes into its period’s global invoice. End of the month of the sale (Mexico City) plus the merchant’s receiptGraceDays',
    }),
    invoiceId: Nullable(Type.String({ description: 'The invoice or global invoice that covers it' })),
    cancelledAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When it was cancelled; null unless cancelled',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Receipt = Static<typeof ReceiptSchema>;

export const ReceiptListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(ReceiptStatusSchema),
  externalId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only the receipts of this sale id of yours' }),
  ),
  branch: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Only the receipts of this shop or till' }),
  ),
});

const customerFields = {
  receiver: Type.Optional(ReceiverSchema),
  customerId: Type.Optional(CustomerId),
  usoCfdi: Type.Optional(
    Type.String({ minLength: 2, maxLength: 4, description: "c_UsoCFDI key; default: the customer's" }),
  ),
};

/** `POST /v1/receipts/{id}/invoice`: who the invoice is for; what it sells is the receipt's. */
export const ReceiptInvoiceSchema = named(
  'ReceiptInvoice',
  Type.Object(customerFields, { additionalProperties: false }),
);

/** `POST /v1/invoices/from_receipts`: open receipts of one merchant into one invoice. */
export const InvoiceFromReceiptsSchema = named(
  'InvoiceFromReceipts',
  Type.Object(
    {
      receiptIds: Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 50,
        description: 'Open receipts (rcpt_…) of one merchant, with the same pricesIncludeTax',
      }),
      ...customerFields,
    },
    { additionalProperties: false },
  ),
);

export const GlobalInvoiceRunSchema = named(
  'GlobalInvoiceRun',
  Type.Object(
    {
      merchantId: Type.String({ minLength: 1 }),
      date: Type.String({
        pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        description: 'Any day of the period (YYYY-MM-DD, Mexico City calendar); the period must have ended',
      }),
      periodicity: Type.Optional(
        StringEnum(['01', '02', '03', '04', '05'], {
          description:
            'c_Periodicidad of the period: 01 daily … 05 bimonthly (régimen 621 only); default the merchant’s globalInvoice.periodicity',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type GlobalInvoiceRunBody = Static<typeof GlobalInvoiceRunSchema>;
