export * from './types';
export { computeInvoice } from './tax/compute-invoice';
export type { ComputedInvoice, ComputedConcept, ComputedTax, ComputedGroup } from './tax/computed';
export { cadenaOriginal } from './cadena/cadena-original';
export { normalizeSpace } from './cadena/normalize-space';
export { inspectCertificate, keyMatchesCertificate, noCertificadoFromSerial, type CertificateInfo } from './seal/certificate';
export { openPrivateKey } from './seal/private-key';
export { sealXml, signCadena, verifySeal, type Csd, type SealResult, type SealVerification } from './seal/seal';
export { appendTfd, buildTfd, parseTfd, tfdCadena, type BuildTfdInput, type BuiltTfd, type Tfd } from './tfd/tfd';
