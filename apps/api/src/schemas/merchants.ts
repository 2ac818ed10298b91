import { Type, type Static } from '@sinclair/typebox';
import { MERCHANT_RFC_PATTERN } from '@cfdi/services';
import { Timestamp } from './common';

const legalName = Type.String({ minLength: 1, maxLength: 300, description: 'Registered name, without the corporate-type suffix' });
const regimenFiscal = Type.String({ pattern: '^[0-9]{3}$', description: 'c_RegimenFiscal key valid for the RFC\'s person type' });
const zip = Type.String({ pattern: '^[0-9]{5}$', description: 'Postal code of the place of issue' });
const serie = Type.String({ minLength: 1, maxLength: 10, description: 'Default "A"' });
const claveProdServ = Type.String({ pattern: '^[0-9]{8}$' });
const claveUnidad = Type.String({ minLength: 1, maxLength: 5 });
const registroPatronal = Type.String({ minLength: 1, maxLength: 20, pattern: '^[^|]*$', description: 'IMSS registro patronal: the default of payroll receipts for contract types 01-08' });
const borderRegionStimulus = Type.Boolean({
  description: 'Registered with the SAT in the northern or southern border-region stimulus (IVA 8 %, "IVA crédito aplicado del 50%"). Only such merchants may send ivaRate 0.08; their PDFs carry the stimulus legend. Default false',
});

export const MerchantCreateSchema = Type.Object({
  rfc: Type.String({ pattern: MERCHANT_RFC_PATTERN, description: '12 characters (persona moral) or 13 (persona física); cannot change later' }),
  legalName,
  regimenFiscal,
  zip,
  serie: Type.Optional(serie),
  defaultClaveProdServ: Type.Optional(claveProdServ),
  defaultClaveUnidad: Type.Optional(claveUnidad),
  registroPatronal: Type.Optional(registroPatronal),
  borderRegionStimulus: Type.Optional(borderRegionStimulus),
}, { additionalProperties: false });
export type MerchantCreate = Static<typeof MerchantCreateSchema>;

/** The RFC is not here on purpose: a PATCH carrying it is refused with a 400 on /rfc. */
export const MerchantUpdateSchema = Type.Object({
  legalName: Type.Optional(legalName),
  regimenFiscal: Type.Optional(regimenFiscal),
  zip: Type.Optional(zip),
  serie: Type.Optional(serie),
  defaultClaveProdServ: Type.Optional(Type.Union([claveProdServ, Type.Null()], { description: 'null clears it' })),
  defaultClaveUnidad: Type.Optional(Type.Union([claveUnidad, Type.Null()], { description: 'null clears it' })),
  registroPatronal: Type.Optional(Type.Union([registroPatronal, Type.Null()], { description: 'null clears it' })),
  borderRegionStimulus: Type.Optional(borderRegionStimulus),
}, { additionalProperties: false });
export type MerchantUpdate = Static<typeof MerchantUpdateSchema>;

export const CsdSchema = Type.Object({
  object: Type.Literal('csd'),
  serialNumber: Type.String({ description: '20-digit NoCertificado' }),
  rfc: Type.String(),
  validFrom: Timestamp,
  validTo: Timestamp,
  status: Type.Union([Type.Literal('active'), Type.Literal('expired')]),
  registeredWithPac: Type.Boolean(),
  updatedAt: Timestamp,
});
export type Csd = Static<typeof CsdSchema>;

export const MerchantSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('merchant'),
  livemode: Type.Boolean(),
  rfc: Type.String(),
  legalName: Type.String(),
  regimenFiscal: Type.String(),
  zip: Type.String(),
  serie: Type.String(),
  defaultClaveProdServ: Type.Union([Type.String(), Type.Null()]),
  defaultClaveUnidad: Type.Union([Type.String(), Type.Null()]),
  registroPatronal: Type.Union([Type.String(), Type.Null()]),
  borderRegionStimulus: Type.Boolean(),
  csd: Type.Union([CsdSchema, Type.Null()]),
  logoUrl: Type.Union([Type.String({ description: 'Signed URL, valid 15 minutes' }), Type.Null()]),
  createdAt: Timestamp,
});
export type Merchant = Static<typeof MerchantSchema>;

export const DeletedMerchantSchema = Type.Object({ id: Type.String(), object: Type.Literal('merchant'), deleted: Type.Literal(true) });

const base64File = (description: string) => Type.String({ minLength: 1, description });

export const CsdUploadSchema = Type.Object({
  cer: base64File('The .cer file (DER X.509) in base64'),
  key: base64File('The .key file (DER encrypted PKCS#8) in base64'),
  password: Type.String({ minLength: 1, description: 'Password of the .key; stored encrypted, never returned' }),
}, { additionalProperties: false });
export type CsdUpload = Static<typeof CsdUploadSchema>;

export const LogoUploadSchema = Type.Object({
  logo: base64File('PNG, JPEG or WebP in base64, at most 500 KB decoded'),
}, { additionalProperties: false });
export type LogoUpload = Static<typeof LogoUploadSchema>;
