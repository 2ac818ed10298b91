import { createHash, randomBytes } from 'node:crypto';

/** A random secret (256 bits) with a readable prefix; only its sha256 is stored. */
export const randomToken = (prefix = '') => `${prefix}${randomBytes(32).toString('base64url')}`;

/** High-entropy secrets are stored as sha256: a slow hash adds nothing to 256 random bits. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
