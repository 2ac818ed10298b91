import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A master key from the environment; `id` travels with every ciphertext so keys can rotate. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

const VERSION = 'v1';
const IV_BYTES = 12;

/** The key that seals (the current one) and the retired keys that still open (config MASTER_KEYS_PREVIOUS). */
export interface MasterKeyring extends MasterKey {
  previous: readonly MasterKey[];
}

/** Every key of the ring that opens envelopes: the current one first. */
export const readableKeys = (ring: MasterKeyring): MasterKey[] => [ring, ...ring.previous];

/** Whether an envelope was sealed under this key (a rotation skips it). */
export const sealedUnder = (envelope: string, key: MasterKey): boolean =>
  envelope.startsWith(`${VERSION}:${key.id}:`);

/**
 * The AES key is HKDF-SHA256(master key, info "secret-box") rather than the master key itself, so the same
 * master key can also derive the file-URL secret without the two uses ever sharing key material.
 */
const dataKey = (master: MasterKey) =>
  Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), 'secret-box', 32));

/**
 * AES-256-GCM envelope: `v1:<keyId>:<iv>:<tag>:<ciphertext>` (base64 parts). `context` is authenticated but
 * not stored (e.g. the merchant id), so an envelope copied onto another row fails to open.
 */
export function sealSecret(master: MasterKey, plaintext: Buffer, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey(master), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64'));
  return [VERSION, master.id, ...parts].join(':');
}

export class SecretBoxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}

/** Opens an envelope with whichever of `keys` carries its key id (the current key plus retired ones). */
export function openSecret(keys: readonly MasterKey[], envelope: string, context: string): Buffer {
  const [version, keyId, iv, tag, ciphertext, ...rest] = envelope.split(':');
  if (version !== VERSION || rest.length || !keyId || !iv || !tag || ciphertext === undefined) {
    throw new SecretBoxError('unrecognised secret envelope');
  }
  const master = keys.find((k) => k.id === keyId);
  if (!master)
    throw new SecretBoxError(`secret encrypted under master key "${keyId}", which is not configured`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', dataKey(master), Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]);
  } catch (error) {
    // Never include the envelope or the key: only say that authentication failed.
    throw new SecretBoxError(`secret under master key "${keyId}" failed authentication`, { cause: error });
  }
}
