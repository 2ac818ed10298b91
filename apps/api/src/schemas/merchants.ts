import { Type, type Static } from '@sinclair/typebox';
import { BRAND_COLOR_PATTERN, PDF_NOTE_MAX_CHARS, PDF_NOTE_MAX_LINES } from '@cfdi/cfdi/pure';
import { MERCHANT_RFC_PATTERN } from '@cfdi/services';
import { StringEnum, Timestamp } from './common';
import { EmailAddressesSchema } from './emails';
import { named } from '../openapi-components';

const legalName = Type.String({
  minLength: 1,
  maxLength: 300,
  description: 'Registered name, without the corporate-type suffix',
});
const regimenFiscal = Type.String({
  pattern: '^[0-9]{3}$',
  description: "c_RegimenFiscal key valid for the RFC's person type",
});
const zip = Type.String({ pattern: '^[0-9]{5}$', description: 'Postal code of the place of issue' });
const serie = Type.String({ minLength: 1, maxLength: 10, description: 'Default "A"' });
const claveProdServ = Type.String({ pattern: '^[0-9]{8}$' });
const claveUnidad = Type.String({ minLength: 1, maxLength: 5 });
const registroPatronal = Type.String({
  minLength: 1,
  maxLength: 20,
  pattern: '^[^|]*$',
  description: 'IMSS registro patronal: the default of payroll receipts for contract types 01-08',
});
const borderRegionStimulus = Type.Boolean({
  description:
    'Registered with the SAT in the northern or southern border-region stimulus (IVA 8 %, "IVA crédito aplicado del 50%"). Only such merchants may send ivaRate 0.08; their PDFs carry the stimulus legend. Default false',
});

const autoEmail = Type.Boolean({
  description:
    "E-mail each stamped document (XML and PDF) and each cancellation (with the SAT's acuse) on its own, to the document's recipients and emailCopyTo. Default false",
});
const emailCopyTo = EmailAddressesSchema(
  "Addresses copied on every e-mail of this merchant's documents (its own bookkeeping), at most 10",
);

const Periodicity = StringEnum(['01', '02', '03', '04', '05'], {
  description:
    'c_Periodicidad of the global invoice: 01 daily, 02 weekly (Monday to Sunday, cut at the month’s end), 03 fortnightly (1–15, 16–end), 04 monthly, 05 bimonthly (régimen 621 only)',
});
const globalInvoiceDescription =
  'The automatic global invoice of the merchant’s receipts: when enabled, each period’s receipts nobody invoiced are stamped in one global invoice to PUBLICO EN GENERAL after the period ends (plus receiptGraceDays)';

export const GlobalInvoiceSettingUpdateSchema = named(
  'GlobalInvoiceSettingUpdate',
  Type.Object(
    {
      enabled: Type.Boolean({ description: 'Turns the automatic global invoice on or off' }),
      periodicity: Type.Optional(Periodicity),
    },
    {
      additionalProperties: false,
      description: `${globalInvoiceDescription}; periodicity defaults to 04 (monthly) or stays as set`,
    },
  ),
);

export const GlobalInvoiceSettingSchema = named(
  'GlobalInvoiceSetting',
  Type.Object(
    {
      enabled: Type.Boolean({ description: 'Whether the automatic global invoice runs' }),
      periodicity: Periodicity,
    },
    { description: globalInvoiceDescription },
  ),
);

const receiptGraceDays = Type.Integer({
  minimum: 0,
  maximum: 60,
  description:
    'Days after the end of a receipt’s month (its global period when the global invoice is on) that its customer may still invoice it; the global run of a period waits as long. Default 0',
});

const brandColor = Type.Union(
  [
    Type.String({
      pattern: BRAND_COLOR_PATTERN,
      description: '#RRGGBB; stored and returned lowercase',
    }),
    Type.Null(),
  ],
  {
    description:
      'The brand colour of its PDFs (section titles when readable on white, rules, table headers with black or white text by WCAG contrast) and of its self-invoicing portal page (header and buttons); null for the default grey',
  },
);
const pdfNote = Type.Union(
  [
    Type.String({
      maxLength: PDF_NOTE_MAX_CHARS,
      description: `At most ${PDF_NOTE_MAX_CHARS} characters and ${PDF_NOTE_MAX_LINES} lines, no control characters but line breaks and tabs`,
    }),
    Type.Null(),
  ],
  {
    description:
      'Printed as typed at the foot of every PDF after the seals (bank details, a thank-you line); characters the PDF font cannot draw print as "?". Line breaks become \\n and trailing spaces go; blank or null for none',
  },
);

/** The settings a merchant is created with and can change, the same in both bodies. */
const MERCHANT_SETTINGS = {
  borderRegionStimulus: Type.Optional(borderRegionStimulus),
  autoEmail: Type.Optional(autoEmail),
  emailCopyTo: Type.Optional(emailCopyTo),
  globalInvoice: Type.Optional(GlobalInvoiceSettingUpdateSchema),
  receiptGraceDays: Type.Optional(receiptGraceDays),
  brandColor: Type.Optional(brandColor),
  pdfNote: Type.Optional(pdfNote),
};

export const MerchantCreateSchema = named(
  'MerchantCreate',
  Type.Object(
    {
      rfc: Type.String({
        pattern: MERCHANT_RFC_PATTERN,
        description: '12 characters (persona moral) or 13 (persona física); cannot change later',
      }),
      legalName,
      regimenFiscal,
      zip,
      serie: Type.Optional(serie),
      defaultClaveProdServ: Type.Optional(claveProdServ),
      defaultClaveUnidad: Type.Optional(claveUnidad),
      registroPatronal: Type.Optional(registroPatronal),
      ...MERCHANT_SETTINGS,
    },
    { additionalProperties: false },
  ),
);
export type MerchantCreate = Static<typeof MerchantCreateSchema>;

/** The RFC is not here on purpose: a PATCH carrying it is refused with a 400 on /rfc. */
export const MerchantUpdateSchema = named(
  'MerchantUpdate',
  Type.Object(
    {
      legalName: Type.Optional(legalName),
      regimenFiscal: Type.Optional(regimenFiscal),
      zip: Type.Optional(zip),
      serie: Type.Optional(serie),
      defaultClaveProdServ: Type.Optional(
        Type.Union([claveProdServ, Type.Null()], { description: 'null clears it' }),
      ),
      defaultClaveUnidad: Type.Optional(
        Type.Union([claveUnidad, Type.Null()], { description: 'null clears it' }),
      ),
      registroPatronal: Type.Optional(
        Type.Union([registroPatronal, Type.Null()], { description: 'null clears it' }),
      ),
      ...MERCHANT_SETTINGS,
    },
    { additionalProperties: false },
  ),
);
export type MerchantUpdate = Static<typeof MerchantUpdateSchema>;

export const CsdSchema = named(
  'Csd',
  Type.Object({
    object: Type.Literal('csd'),
    serialNumber: Type.String({ description: '20-digit NoCertificado' }),
    rfc: Type.String({ description: 'The RFC the certificate was issued to' }),
    validFrom: Timestamp,
    validTo: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('expired')], {
      description: 'active while validTo is ahead, expired after: an expired CSD cannot stamp',
    }),
    registeredWithPac: Type.Boolean(),
    updatedAt: Timestamp,
  }),
);
export type Csd = Static<typeof CsdSchema>;

export const MerchantSchema = named(
  'Merchant',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('merchant'),
    livemode: Type.Boolean(),
    rfc: Type.String({ description: "The merchant's RFC (12 characters persona moral, 13 persona física)" }),
    legalName: Type.String(),
    regimenFiscal: Type.String(),
    zip: Type.String(),
    serie: Type.String(),
    defaultClaveProdServ: Type.Union([Type.String(), Type.Null()]),
    defaultClaveUnidad: Type.Union([Type.String(), Type.Null()]),
    registroPatronal: Type.Union([Type.String(), Type.Null()]),
    borderRegionStimulus: Type.Boolean(),
    autoEmail: Type.Boolean(),
    emailCopyTo: Type.Array(Type.String()),
    globalInvoice: GlobalInvoiceSettingSchema,
    receiptGraceDays: Type.Integer({ description: receiptGraceDays.description }),
    csd: Type.Union([CsdSchema, Type.Null()]),
    logoUrl: Type.Union([Type.String({ description: 'Signed URL, valid 15 minutes' }), Type.Null()]),
    brandColor: Type.Union([Type.String(), Type.Null()]),
    pdfNote: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
  }),
);
export type Merchant = Static<typeof MerchantSchema>;

export const DeletedMerchantSchema = named(
  'DeletedMerchant',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('merchant'),
    deleted: Type.Literal(true),
  }),
);

const base64File = (description: string) => Type.String({ minLength: 1, description });

export const CsdUploadSchema = named(
  'CsdUpload',
  Type.Object(
    {
      cer: base64File('The .cer file (DER X.509) in base64'),
      key: base64File('The .key file (DER encrypted PKCS#8) in base64'),
      password: Type.String({
        minLength: 1,
        description: 'Password of the .key; stored encrypted, never returned',
      }),
    },
    { additionalProperties: false },
  ),
);
export type CsdUpload = Static<typeof CsdUploadSchema>;

export const LogoUploadSchema = named(
  'LogoUpload',
  Type.Object(
    {
      logo: base64File('PNG, JPEG or WebP in base64, at most 500 KB decoded'),
    },
    { additionalProperties: false },
  ),
);
