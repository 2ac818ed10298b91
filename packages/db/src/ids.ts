import { randomBytes } from 'node:crypto';

// Crockford base32: its characters sort in ASCII order, so ids sort by creation time.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix =
  | 'acct'
  | 'key'
  | 'txn'
  | 'mch'
  | 'inv'
  | 'pay'
  | 'nom'
  | 'ret'
  | 'tra'
  | 'evt'
  | 'file'
  | 'idem'
  | 'rec'
  | 'we'
  | 'wha'
  | 'pur'
  | 'cu'
  | 'ocl'
  | 'oaz'
  | 'ogr'
  | 'cs'
  | 'aud'
  | 'eml'
  | 'cus'
  | 'prod'
  | 'rcpt'
  | 'exp'
  | 'bal';

/**
 * Opaque, type-prefixed ids that sort by creation time (10 time chars + 16 random chars),
 * so "newest first" is `ORDER BY id DESC` and stays stable when timestamps are equal.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  const bytes = randomBytes(16);
  let random = '';
  for (const byte of bytes) random += ALPHABET[byte % 32];
  return `${idAtTime(prefix, now)}${random}`;
}

/**
 * The smallest id of `prefix` made at `time` (ms): every id made at or after it sorts at or above it, so a time range
 * is an id range that the primary key (or any index ending in id) answers without a created_at index.
 */
export function idAtTime(prefix: IdPrefix, time: number): string {
  let encoded = '';
  let t = Math.max(0, Math.floor(time));
  for (let i = 0; i < 10; i++) {
    encoded = ALPHABET[t % 32] + encoded;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${encoded}`;
}
