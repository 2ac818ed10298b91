export type * from './types';
export type { PacLogger } from './logger';
export { silentLogger } from './logger';
export { FinkokPac, type FinkokPacOptions } from './finkok/finkok-pac';
export type { FinkokCredentials } from './finkok/requests';
export * as finkokRequests from './finkok/requests';
export {
  FINKOK_SERVICES,
  FINKOK_OPERATIONS,
  finkokWireName,
  FINKOK_TYPES_NS,
  COD_ESTATUS,
  type FinkokOperation,
  type FinkokService,
} from './finkok/protocol';
export { buildEnvelope, parseEnvelope, parseStrictXml, childElements, SOAP_ENV_NS } from './soap/envelope';
export { escapeXml } from './soap/xml-escape';
export { NOT_PROCESSED_HEADER } from './transport/classify-transport';
export { NullPac, NOT_CONFIGURED_DETAIL } from './null-pac';
export { createPacClient, type PacSettings } from './create-pac-client';
export {
  buildCancelacionXml,
  CANCELACION_NS,
  type CancelacionFolio,
  type CancelacionInput,
  type MotivoCancelacion,
} from './cancellation/cancelacion-xml';
export { signCancelacion, type SigningCsd } from './cancellation/sign-cancelacion';
export { verifyEnvelopedSignature, type SignatureCheck } from './cancellation/verify-signature';
