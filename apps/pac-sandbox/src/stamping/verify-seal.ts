import { cadenaOriginal, type SealVerification } from '@cfdi/cfdi';
import { createVerify, type KeyObject } from 'node:crypto';

/**
 * @cfdi/cfdi's verifySeal (same checks and reasons) with the public key of the certificate the
 * caller already parsed and matched to NoCertificado, instead of parsing Certificado again.
 */
export function verifySealWithKey(xml: string, sello: string, publicKey: KeyObject): SealVerification {
  if (!sello) return { valid: false, reason: 'Sello is missing' };
  let cadena: string;
  try {
    cadena = cadenaOriginal(xml);
  } catch (err) {
    return { valid: false, reason: (err as Error).message };
  }
  const ok = createVerify('RSA-SHA256').update(cadena, 'utf8').verify(publicKey, sello, 'base64');
  return ok ? { valid: true } : { valid: false, reason: 'Sello does not match the cadena original' };
}
