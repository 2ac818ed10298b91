export {
  createMerchant,
  retrieveMerchant,
  updateMerchant,
  deleteMerchant,
  listMerchants,
  getStampingMerchant,
  DEFAULT_SERIE,
  type MerchantCreate,
  type MerchantUpdate,
  type MerchantContext,
  type ListMerchantsInput,
  type MerchantForStamping,
} from './merchants';
export { findMerchant, assertMerchantAccess, type FindMerchantOptions } from './merchant-access';
export type { MerchantView, CsdView, ViewContext } from './merchant-view';
export { MERCHANT_RFC_PATTERN, personTypeOfRfc, rfcProblem, regimenProblem } from './merchant-rules';
export { saveCsd, retrieveCsd, loadSigningCsd, type CsdContext, type SigningCsd } from './csd';
export {
  validateCsdUpload,
  CSD_SUBCODES,
  type CsdSubcode,
  type CsdUpload,
  type ValidatedCsd,
} from './csd-validation';
export {
  putMerchantLogo,
  deleteMerchantLogo,
  loadMerchantLogo,
  loadPrintableLogo,
  merchantLogoKey,
  MAX_LOGO_BYTES,
  MAX_LOGO_SIDE,
  type LogoContext,
} from './logo';
export { sniffImageType, type LogoContentType } from './image-type';
export { loadPdfLook, type KnownLook } from './pdf-look';
export { lookProblems, normalizedLook } from './look-rules';
// The colour rules, for the apps that style a merchant's pages (the portal) without depending on @cfdi/cfdi.
export { brandTextOnWhite, readableTextOn } from '@cfdi/cfdi/pure';
