import { hkdfSync, randomBytes } from 'node:crypto';

let ephemeral: Buffer | undefined;

/**
 * The file-URL signing key: HKDF-SHA256 of the master key with info "file-urls", so the master key itself
 * never signs anything and every replica derives the same secret. Without a master key (development only;
 * the config refuses live mode without one) a random per-process secret is used: links keep working while
 * the process runs and simply stop after a restart or on another replica.
 */
export function fileUrlSecret(masterKey: { key: Buffer } | null): Buffer {
  if (masterKey) return Buffer.from(hkdfSync('sha256', masterKey.key, Buffer.alloc(0), 'file-urls', 32));
  ephemeral ??= randomBytes(32);
  return ephemeral;
}
