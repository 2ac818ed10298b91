import { randomBytes } from 'node:crypto';

// Crockford base32: its characters sort in ASCII order, so ids sort by creation time.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix =
  | 'acct' | 'key' | 'txn' | 'mch' | 'inv' | 'pay' | 'nom' | 'evt' | 'file' | 'idem' | 'rec' | 'we' | 'wha' | 'pur'
  | 'cu' | 'ocl' | 'oaz' | 'ogr' | 'cs' | 'aud';

/**
 * Opaque, type-prefixed ids that sort by creation time (10 time chars + 16 random chars),
 * so "newest first" is `ORDER BY id DESC` and stays stable when timestamps are equal.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (const byte of bytes) random += ALPHABET[byte % 32];
  return `${prefix}_${time}${random}`;
}
