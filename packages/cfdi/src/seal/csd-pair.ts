import type { KeyObject } from 'node:crypto';
import { inspectCertificate, keyMatchesCertificate, type CertificateInfo } from './certificate';
import { openPrivateKey } from './private-key';

export type CsdProblemCode =
  'invalid_certificate' | 'wrong_password' | 'key_mismatch' | 'not_csd' | 'expired' | 'not_yet_valid';

export interface CsdProblem {
  code: CsdProblemCode;
  message: string;
}

export interface CsdPairCheck {
  certificate?: CertificateInfo;
  privateKey?: KeyObject;
  /** Empty when the pair can seal CFDIs at `now`. */
  problems: CsdProblem[];
}

/**
 * Local checks of an uploaded .cer/.key pair (api-spec CsdUpload): readable certificate,
 * password, key belongs to the certificate, CSD rather than FIEL, validity at `now`.
 */
export function checkCsdPair(cerDer: Buffer, keyDer: Buffer, password: string, now: Date): CsdPairCheck {
  const problems: CsdProblem[] = [];
  let certificate: CertificateInfo;
  try {
    certificate = inspectCertificate(cerDer);
  } catch {
    return {
      problems: [{ code: 'invalid_certificate', message: 'the .cer file is not a DER X.509 certificate' }],
    };
  }
  let privateKey: KeyObject | undefined;
  try {
    privateKey = openPrivateKey(keyDer, password);
  } catch {
    problems.push({
      code: 'wrong_password',
      message: 'the .key file cannot be opened with this password (or is not an encrypted PKCS#8 key)',
    });
  }
  if (privateKey && !keyMatchesCertificate(cerDer, privateKey)) {
    problems.push({ code: 'key_mismatch', message: 'the private key does not belong to the certificate' });
  }
  if (certificate.kind !== 'csd') {
    problems.push({
      code: 'not_csd',
      message:
        'this is an e.firma (FIEL) certificate; CFDIs are sealed with a Certificado de Sello Digital (CSD)',
    });
  }
  if (now > certificate.validTo)
    problems.push({
      code: 'expired',
      message: `the certificate expired on ${certificate.validTo.toISOString()}`,
    });
  if (now < certificate.validFrom)
    problems.push({
      code: 'not_yet_valid',
      message: `the certificate is valid from ${certificate.validFrom.toISOString()}`,
    });
  return { certificate, ...(privateKey ? { privateKey } : {}), problems };
}
