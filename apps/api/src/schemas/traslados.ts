import { Type } from '@sinclair/typebox';
import { MAX_QUANTITY } from '@cfdi/services';
import { PaginationQuerySchema, Timestamp } from './common';
import { DocumentStatusSchema, InvoiceSchema } from './documents';
import { CancellationSchema } from './payments';
import { CartaPorteSchema, CartaPorteSummarySchema } from './carta-porte';
import { named } from '../openapi-components';

/**
 * POST /v1/traslados: a traslado CFDI (TipoDeComprobante T) of the merchant's own goods. The shapes are checked here;
 * catalog keys, the traslado's rules (no price, payment, currency or receiver) and the Carta Porte's are checked by
 * the engine (`checkTrasladoRequest`), each failure a 400 with its field path.
 */
const NoPipe = (max: number, description: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[^|]*$', description });

const TrasladoItemSchema = named(
  'TrasladoItem',
  Type.Object(
    {
      productCode: Type.String({
        pattern: '^[0-9]{8}$',
        description: 'ClaveProdServ (c_ClaveProdServ) of the good',
      }),
      unitCode: Type.String({ minLength: 1, maxLength: 5, description: 'ClaveUnidad (c_ClaveUnidad)' }),
      description: NoPipe(1000, 'Descripcion of the good as printed'),
      quantity: Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_QUANTITY,
        description: 'Cantidad, up to 6 decimals',
      }),
      unit: Type.Optional(NoPipe(20, 'Unidad as printed')),
      noIdentificacion: Type.Optional(
        NoPipe(100, 'NoIdentificacion: your SKU or serial, printed under the description'),
      ),
      unitPrice: Type.Optional(
        Type.Number({
          description: 'Absent or 0: a traslado moves goods without a price (ValorUnitario and Importe 0)',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'One good moved (a Concepto at ValorUnitario 0, ObjetoImp 01)',
    },
  ),
);

export const TrasladoCreateSchema = named(
  'TrasladoCreate',
  Type.Object(
    {
      merchantId: Type.String({
        minLength: 1,
        description: 'The merchant whose goods move: the Emisor and also the Receptor (mch_…)',
      }),
      folio: Type.Optional(NoPipe(40, 'Display folio; the numeric folio of the TR series is still assigned')),
      items: Type.Array(TrasladoItemSchema, {
        minItems: 1,
        maxItems: 500,
        description: 'The goods moved (Conceptos), each at ValorUnitario 0',
      }),
      cartaPorte: Type.Optional(CartaPorteSchema),
    },
    {
      additionalProperties: false,
      description:
        "A traslado CFDI (T) of the merchant's own goods: the goods, and the Carta Porte when they travel a federal road",
    },
  ),
);

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const TrasladoSchema = named(
  'Traslado',
  Type.Object(
    {
      id: Type.String({ description: 'The traslado: tra_…' }),
      object: Type.Literal('traslado'),
      livemode: Type.Boolean(),
      status: DocumentStatusSchema,
      uuid: NullableString('Folio fiscal: the UUID of the SAT timbre; null until stamped'),
      serie: Type.String({ description: 'Serie: TR, the series of traslados' }),
      folio: Type.Union([Type.Integer(), Type.Null()], {
        description: "Number of the traslado in the merchant's TR series",
      }),
      folioText: NullableString('The display folio sent; null when none'),
      merchantId: Type.String(),
      receiver: Type.Object(
        {
          rfc: Type.String({ description: "The merchant's own RFC" }),
          name: Type.String({ description: "The merchant's registered name" }),
          zip: Type.String(),
          regimenFiscal: Type.String(),
        },
        { description: 'The Receptor: the merchant itself (UsoCFDI S01)' },
      ),
      items: Type.Array(
        Type.Object({
          productCode: Type.String({ description: 'ClaveProdServ' }),
          unitCode: Type.String({ description: 'ClaveUnidad' }),
          unit: NullableString('Unidad; null when none'),
          description: Type.String({ description: 'Descripcion' }),
          quantity: Type.Number({ description: 'Cantidad' }),
          noIdentificacion: NullableString('NoIdentificacion; null when none'),
        }),
        { description: 'The goods moved' },
      ),
      cartaPorte: Type.Union([CartaPorteSummarySchema, Type.Null()], {
        description: 'Its Carta Porte 3.1 in brief; null for a traslado without one',
      }),
      fecha: NullableString('Fecha as sealed (Mexico City local time); null until sealed'),
      files: InvoiceSchema.properties.files,
      cancellation: CancellationSchema,
      needsReconciliation: Type.Boolean(),
      failure: InvoiceSchema.properties.failure,
      stampedAt: Type.Union([Timestamp, Type.Null()]),
      createdAt: Timestamp,
    },
    {
      description:
        "A traslado CFDI (TipoDeComprobante T): the merchant's own goods moved, issued to itself without amounts",
    },
  ),
);

/** Filters of `GET /v1/traslados`. */
export const TrasladoListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  merchantId: Type.Optional(Type.String({ minLength: 1 })),
  status: Type.Optional(DocumentStatusSchema),
  uuid: Type.Optional(Type.String({ minLength: 1 })),
  createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
  createdTo: Type.Optional(Type.String({ format: 'date-time' })),
});
