import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertStorageKey } from './storage-key';

/** Route prefix of the API that serves stored files (outside /v1: the signature is the credential). */
export const FILES_PATH = '/files';

export interface SignFileUrlInput {
  /** Public base of the API, e.g. https://api.example.com (no trailing slash needed). */
  baseUrl: string;
  key: string;
  ttlSeconds: number;
  secret: Buffer;
  now: Date;
}

export type FileSignatureCheck =
  { valid: true } | { valid: false; reason: 'malformed' | 'expired' | 'bad_signature' };

export interface VerifyFileSignatureInput {
  key: string;
  /** Raw query values as received; anything that is not a decimal Unix time or a base64url MAC is malformed. */
  expires: string | undefined;
  signature: string | undefined;
  secret: Buffer;
  now: Date;
}

// The key and the expiry are both covered, so neither can be swapped or extended without the secret.
const mac = (secret: Buffer, key: string, expires: number) =>
  createHmac('sha256', secret).update(`${key}\n${expires}`).digest();

/** `{baseUrl}/files/{key}?expires=<unix seconds>&signature=<base64url HMAC-SHA256>` */
export function signFileUrl({ baseUrl, key, ttlSeconds, secret, now }: SignFileUrlInput): string {
  assertStorageKey(key);
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const signature = mac(secret, key, expires).toString('base64url');
  return `${baseUrl.replace(/\/+$/, '')}${FILES_PATH}/${key}?expires=${expires}&signature=${signature}`;
}

export function verifyFileSignature({
  key,
  expires,
  signature,
  secret,
  now,
}: VerifyFileSignatureInput): FileSignatureCheck {
  // Canonical forms only (no leading zeros in `expires`), so each file and expiry has exactly one valid URL.
  if (!expires || !/^[1-9]\d{0,11}$/.test(expires) || !signature || !/^[A-Za-z0-9_-]{43}$/.test(signature)) {
    return { valid: false, reason: 'malformed' };
  }
  const expected = mac(secret, key, Number(expires));
  // Constant-time comparison of the strings as issued: decoding first would also accept the variants of the last
  // character whose unused low bits differ.
  if (!timingSafeEqual(Buffer.from(expected.toString('base64url')), Buffer.from(signature)))
    return { valid: false, reason: 'bad_signature' };
  if (Number(expires) * 1000 <= now.getTime()) return { valid: false, reason: 'expired' };
  return { valid: true };
}
