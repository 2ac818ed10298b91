import { createPrivateKey, type KeyObject } from 'node:crypto';

/**
 * Opens a SAT .key file: DER PKCS#8 EncryptedPrivateKeyInfo (PBES2, DES-EDE3-CBC).
 * Throws when the password is wrong; callers map that to their own error.
 */
export function openPrivateKey(der: Buffer, password: string): KeyObject {
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8', passphrase: password });
}
