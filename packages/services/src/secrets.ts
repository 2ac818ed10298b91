import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A fresh API key secret: `sk_test_` / `sk_live_` followed by 32 base62 characters (~190 bits). */
export function generateKeySecret(livemode: boolean): string {
  const bytes = randomBytes(32);
  let body = '';
  for (const byte of bytes) body += BASE62[byte % 62];
  return `${livemode ? 'sk_live_' : 'sk_test_'}${body}`;
}

/** Keys are stored as sha256: they are high-entropy, so a slow hash adds nothing. */
export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
