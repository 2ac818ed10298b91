import { inspectCertificate, keyMatchesCertificate, openPrivateKey, type CertificateInfo } from '@cfdi/cfdi';
import { ValidationError } from '../errors';
import { decodeBase64Strict } from './base64';

export const CSD_SUBCODES = [
  'csd_invalid_certificate',
  'csd_invalid_key',
  'csd_wrong_password',
  'csd_key_mismatch',
  'csd_is_fiel',
  'csd_expired',
  'csd_not_yet_valid',
  'csd_rfc_mismatch',
  'csd_pac_rejected',
] as const;
export type CsdSubcode = (typeof CSD_SUBCODES)[number];

export interface CsdUpload {
  /** base64 DER certificate (.cer) */
  cer: string;
  /** base64 DER encrypted PKCS#8 private key (.key) */
  key: string;
  password: string;
}

export interface ValidatedCsd {
  certificateDer: Buffer;
  keyDer: Buffer;
  info: CertificateInfo;
}

export function csdError(subcode: CsdSubcode, path: string, message: string): ValidationError {
  return new ValidationError(message, [{ path, message }], { subcode });
}

/** EncryptedPrivateKeyInfo starts SEQUENCE { SEQUENCE algorithm … }; a plain PrivateKeyInfo starts with INTEGER version. */
function looksEncryptedPkcs8(der: Buffer): boolean {
  if (der.length < 4 || der[0] !== 0x30) return false;
  const lengthBytes = der[1]! & 0x80 ? der[1]! & 0x7f : 0;
  return der[2 + lengthBytes] === 0x30;
}

/**
 * The local checks of an upload, in the order that gives the most useful answer: readable files, the password,
 * the pair, the kind (an expired FIEL is reported as a FIEL), the dates, then the RFC. Error messages never
 * echo the uploaded material.
 */
export function validateCsdUpload(upload: CsdUpload, merchantRfc: string, now: Date): ValidatedCsd {
  const certificateDer = decodeBase64Strict(upload.cer);
  if (!certificateDer)
    throw csdError(
      'csd_invalid_certificate',
      '/cer',
      'The certificate is not valid base64 (send the .cer file encoded in base64).',
    );
  const keyDer = decodeBase64Strict(upload.key);
  if (!keyDer)
    throw csdError(
      'csd_invalid_key',
      '/key',
      'The private key is not valid base64 (send the .key file encoded in base64).',
    );

  let info: CertificateInfo;
  try {
    info = inspectCertificate(certificateDer);
  } catch {
    throw csdError(
      'csd_invalid_certificate',
      '/cer',
      'The certificate is not a readable DER X.509 certificate (.cer).',
    );
  }

  if (!looksEncryptedPkcs8(keyDer)) {
    throw csdError(
      'csd_invalid_key',
      '/key',
      'The private key is not an encrypted PKCS#8 DER key (the .key file issued by the SAT).',
    );
  }
  let privateKey;
  try {
    privateKey = openPrivateKey(keyDer, upload.password);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_OSSL_BAD_DECRYPT') {
      throw csdError('csd_wrong_password', '/password', 'The password does not open the private key.');
    }
    throw csdError('csd_invalid_key', '/key', 'The private key is not a readable encrypted PKCS#8 DER key.');
  }

  if (!keyMatchesCertificate(certificateDer, privateKey)) {
    throw csdError('csd_key_mismatch', '/key', 'The private key does not belong to the certificate.');
  }
  if (info.kind !== 'csd') {
    throw csdError(
      'csd_is_fiel',
      '/cer',
      'This is an e.firma (FIEL) certificate; CFDI must be sealed with a CSD (certificado de sello digital).',
    );
  }
  if (info.validTo.getTime() < now.getTime()) {
    throw csdError('csd_expired', '/cer', `The certificate expired on ${info.validTo.toISOString()}.`);
  }
  if (info.validFrom.getTime() > now.getTime()) {
    throw csdError(
      'csd_not_yet_valid',
      '/cer',
      `The certificate is valid only from ${info.validFrom.toISOString()}.`,
    );
  }
  if (info.rfc !== merchantRfc) {
    throw csdError(
      'csd_rfc_mismatch',
      '/cer',
      `The certificate belongs to RFC ${info.rfc || '(none)'}, not to the merchant's RFC ${merchantRfc}.`,
    );
  }
  return { certificateDer, keyDer, info };
}
