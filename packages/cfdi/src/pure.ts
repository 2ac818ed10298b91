/**
 * The part of the engine with no Node built-ins and no I/O: request types, tax, payment and
 * payroll arithmetic, fiscal validation, and small formatting helpers. Safe to import from
 * workflow code; test/pure-entry.test.ts guards its module graph.
 */
export * from './types';

// Amounts
export { MAX_AMOUNT, MAX_QUANTITY } from './decimal/limits';
export { computeInvoice } from './tax/compute-invoice';
export type { ComputedInvoice, ComputedConcept, ComputedTax, ComputedGroup, Impuesto } from './tax/computed';
export {
  computePayment,
  montoCoversPaid,
  paymentMontoBand,
  type ComputedPayment,
  type PaymentTax,
} from './payment/compute-payment';
export {
  computeNomina,
  JUBILACION_PERCEPCIONES,
  SEPARACION_PERCEPCIONES,
  type NominaTotals,
} from './nomina/compute-nomina';
export { antiguedad, daysBetween, isIsoDate } from './nomina/antiguedad';
export { payablePeriodDays } from './nomina/period-days';
export {
  incomeLimitFor,
  maxSubsidioCausado,
  subsidioEnVigor,
  SUBSIDIO_EMPLEO,
  type SubsidioEmpleo,
} from './nomina/subsidio-empleo';
export * as nominaCatalogs from './nomina/catalogs';
export { IVA_RATES, IEPS_RATES, isIvaRate, isIepsRate } from './tax/rates';
export { formatPedimento, isPedimento, normalizePedimentos } from './tax/pedimentos';
export { PUBLICO_EN_GENERAL } from './xml/publico-en-general';

// Fiscal validation of API requests
export type {
  CartaPorteCatalog,
  CatalogLookup,
  ComercioExteriorCatalog,
  MonedaEntry,
  PaisEntry,
  UsoCfdiEntry,
  RegimenEntry,
} from './validation/catalog-lookup';
export { computeComercioExterior, type ComputedComercioExterior } from './comercio-exterior/compute';
export { computeCartaPorte, isIdCCP, newIdCCP, type ComputedCartaPorte } from './carta-porte/compute';
export * as cartaPorteCatalogs from './carta-porte/catalogs';
export type * from './carta-porte/types';
export { checkCartaPorte, type CartaPorteOptions } from './carta-porte/validate';
export {
  checkTrasladoRequest,
  type CheckedTraslado,
  type TrasladoRequest,
} from './carta-porte/traslado-request';
export type { ValidationIssue } from './validation/issues';
export type { PublishedRate } from './validation/currency';
export type { IssuerContext } from './validation/receiver';
export {
  checkInvoiceRequest,
  validateInvoiceRequest,
  type CheckedRequest,
  type InvoiceRequest,
  type ValidationContext,
} from './validation/invoice-request';
export {
  checkCreditNoteRequest,
  validateCreditNoteRequest,
  type CreditNoteRequest,
} from './validation/credit-note-request';
export {
  checkCustomerRecord,
  checkProductRecord,
  checkReceiptRecord,
  type CustomerRecordRequest,
  type ProductRecordRequest,
} from './validation/records';
export {
  checkPaymentRequest,
  validatePaymentRequest,
  type CheckedPayment,
  type PaidInvoice,
  type PaymentRequest,
} from './validation/payment-request';
export { validateNominaRequest } from './validation/nomina-request';
export {
  validateRetentionRequest,
  type RetentionContext,
  type RetentionRequest,
} from './retenciones/request';
export type {
  RetentionInput,
  RetentionReceiver,
  RetentionTotals,
  RetentionWithholding,
} from './retenciones/types';
export * as retentionCatalogs from './retenciones/catalogs';
export { clabeIsValid } from './validation/nomina-bank-account';
export {
  hasUnsupportedCharacter,
  UNSUPPORTED_CHARACTER,
  UNSUPPORTED_CHARACTER_MESSAGE,
} from './validation/characters';
export { isRfc, personType, isGenericRfc, hasCorporateSuffix, RFC_PATTERN } from './validation/rfc';
export { UUID_PATTERN } from './validation/related-documents';

// Formatting helpers
export { formatFecha, DEFAULT_TIME_ZONE } from './time/fecha';
export { normalizeSpace } from './cadena/normalize-space';
export {
  verificationUrl,
  formatTotalForQr,
  VERIFICATION_BASE,
  type VerificationParams,
} from './qr/verification-url';
export { amountInWords, integerToWords } from './pdf/amount-in-words';
export {
  BRAND_COLOR_PATTERN,
  PDF_NOTE_MAX_CHARS,
  PDF_NOTE_MAX_LINES,
  brandTextOnWhite,
  contrastRatio,
  isBrandColor,
  normalizePdfNote,
  pdfNoteProblem,
  readableTextOn,
  relativeLuminance,
} from './look/brand-color';
