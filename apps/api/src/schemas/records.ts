import { Type, type Static } from '@sinclair/typebox';
import { MAX_AMOUNT, MERCHANT_RFC_PATTERN } from '@cfdi/services';
import { PaginationQuerySchema, StringEnum, Timestamp } from './common';
import { Amount } from './documents';
import { named } from '../openapi-components';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const Text = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[^|]*$', ...(description ? { description } : {}) });

/**
 * An address a mail server accepts, and nothing a header could be split on: no whitespace (so no CR or LF), no
 * quotes, brackets, commas or semicolons; a domain of dot-separated labels.
 */
export const EMAIL_PATTERN =
  '^[^\\s@<>()\\[\\],;:"\\\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$';

const AddressSchema = named(
  'Address',
  Type.Object(
    {
      street: Type.Optional(Text(200)),
      exterior: Type.Optional(Text(50, 'Exterior number')),
      interior: Type.Optional(Text(50, 'Interior number')),
      neighborhood: Type.Optional(Text(200, 'Colonia')),
      city: Type.Optional(Text(200)),
      municipality: Type.Optional(Text(200, 'Municipio or alcaldía')),
      state: Type.Optional(Text(200)),
      country: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'c_Pais key, e.g. MEX' })),
      zip: Type.Optional(Type.String({ pattern: '^[0-9]{5}$' })),
    },
    { additionalProperties: false, description: 'Postal address (the CFDI carries only the fiscal zip)' },
  ),
);

const customerFields = {
  rfc: Type.String({
    pattern: MERCHANT_RFC_PATTERN,
    description: '12 characters (persona moral) or 13 (persona física)',
  }),
  legalName: Type.String({
    minLength: 1,
    maxLength: 300,
    description:
      'Registered name in capitals as on the Constancia de Situación Fiscal, without the corporate suffix',
  }),
  regimenFiscal: Type.String({
    pattern: '^[0-9]{3}$',
    description: "c_RegimenFiscal key valid for the RFC's person type",
  }),
  zip: Type.String({ pattern: '^[0-9]{5}$', description: 'Postal code of the fiscal domicile' }),
  usoCfdi: Nullable(
    Type.String({ minLength: 2, maxLength: 4 }),
    "Documents' usoCfdi when they send none; null: none",
  ),
  emails: Type.Array(Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, format: 'email' }), {
    maxItems: 10,
    uniqueItems: true,
    description: 'Where CFDIs are e-mailed; 0 to 10 addresses',
  }),
  locale: StringEnum(['es', 'en'], { description: 'Language of the e-mails to this customer; default es' }),
  autoEmail: Nullable(
    Type.Boolean(),
    "E-mail the CFDI on stamp and cancellation: true, false, or null (default) for the merchant's setting",
  ),
  address: Nullable(AddressSchema),
};

export const CustomerCreateSchema = named(
  'CustomerCreate',
  Type.Object(
    {
      rfc: customerFields.rfc,
      legalName: customerFields.legalName,
      regimenFiscal: customerFields.regimenFiscal,
      zip: customerFields.zip,
      usoCfdi: Type.Optional(customerFields.usoCfdi),
      emails: Type.Optional(customerFields.emails),
      locale: Type.Optional(customerFields.locale),
      autoEmail: Type.Optional(customerFields.autoEmail),
      address: Type.Optional(customerFields.address),
    },
    { additionalProperties: false },
  ),
);
export type CustomerCreate = Static<typeof CustomerCreateSchema>;

export const CustomerUpdateSchema = named(
  'CustomerUpdate',
  Type.Partial(CustomerCreateSchema, { additionalProperties: false }),
);

export const CustomerSchema = named(
  'Customer',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('customer'),
    livemode: Type.Boolean(),
    rfc: Type.String({ description: "The customer's RFC" }),
    legalName: Type.String(),
    regimenFiscal: Type.String(),
    zip: Type.String(),
    usoCfdi: Nullable(Type.String()),
    emails: Type.Array(Type.String()),
    locale: StringEnum(['es', 'en']),
    autoEmail: Nullable(Type.Boolean()),
    address: Nullable(AddressSchema),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Customer = Static<typeof CustomerSchema>;

export const CustomerListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 300, description: 'Part of the RFC or legal name, any case' }),
  ),
  rfc: Type.Optional(Type.String({ minLength: 1, maxLength: 13, description: 'The exact RFC' })),
});

const IvaRate = Type.Union([Type.Literal(0), Type.Literal(0.08), Type.Literal(0.16)], {
  description: 'IVA rate; default 0.16 (0.08 only for border-region merchants)',
});

const productFields = {
  description: Text(1000, 'The items’ Descripcion'),
  productCode: Type.String({ pattern: '^[0-9]{8}$', description: 'c_ClaveProdServ key' }),
  unitCode: Type.String({ minLength: 1, maxLength: 5, description: 'c_ClaveUnidad key' }),
  unitName: Nullable(Text(20), 'The items’ Unidad, e.g. Pieza'),
  price: Amount({ description: 'Unit price in MXN, up to 6 decimals' }),
  pricesIncludeTax: Type.Boolean({ description: 'Whether price includes IVA and IEPS; default true' }),
  taxable: Type.Boolean({
    description: 'false: IVA exento (ObjetoImp 02 with an Exento traslado); default true',
  }),
  ivaRate: IvaRate,
  iepsRate: Nullable(Type.Number({ minimum: 0, maximum: 3 }), 'IEPS tasa of c_TasaOCuota; null: none'),
  sku: Nullable(
    Text(100),
    'Unique among the live products of the account and mode; the items’ NoIdentificacion',
  ),
};

export const ProductCreateSchema = named(
  'ProductCreate',
  Type.Object(
    {
      description: productFields.description,
      productCode: productFields.productCode,
      unitCode: productFields.unitCode,
      unitName: Type.Optional(productFields.unitName),
      price: productFields.price,
      pricesIncludeTax: Type.Optional(productFields.pricesIncludeTax),
      taxable: Type.Optional(productFields.taxable),
      ivaRate: Type.Optional(productFields.ivaRate),
      iepsRate: Type.Optional(productFields.iepsRate),
      sku: Type.Optional(productFields.sku),
    },
    { additionalProperties: false },
  ),
);
export type ProductCreate = Static<typeof ProductCreateSchema>;

export const ProductUpdateSchema = named(
  'ProductUpdate',
  Type.Partial(ProductCreateSchema, { additionalProperties: false }),
);

export const ProductSchema = named(
  'Product',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('product'),
    livemode: Type.Boolean(),
    description: Type.String({ description: 'The items’ Descripcion' }),
    productCode: Type.String(),
    unitCode: Type.String(),
    unitName: Nullable(Type.String()),
    price: Type.Number({ maximum: MAX_AMOUNT }),
    pricesIncludeTax: Type.Boolean(),
    taxable: Type.Boolean(),
    ivaRate: Type.Number(),
    iepsRate: Nullable(Type.Number()),
    sku: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);
export type Product = Static<typeof ProductSchema>;

export const ProductListQuerySchema = Type.Object({
  ...PaginationQuerySchema.properties,
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 300, description: 'Part of the description or SKU, any case' }),
  ),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The exact SKU' })),
});

/** `{id, object, deleted: true}`: the answer of a record's DELETE. */
export const DeletedRecordSchema = (object: 'customer' | 'product') =>
  named(
    object === 'customer' ? 'DeletedCustomer' : 'DeletedProduct',
    Type.Object({ id: Type.String(), object: Type.Literal(object), deleted: Type.Literal(true) }),
  );
