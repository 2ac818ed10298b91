import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The local master key `npm run up` generates once (CSD encryption, signed URLs) and gives to the services it starts.
 * It lives in the checkout's var/ (git-ignored); `cfdi` reads it from there when MASTER_KEY is not set.
 */
export function devMasterKeyPath(repoRoot: string): string {
  return path.join(repoRoot, 'var', 'dev-master-key');
}

/** The development master key, generated on the first call. */
export function ensureDevMasterKey(repoRoot: string): string {
  const file = devMasterKeyPath(repoRoot);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** The development master key if `npm run up` made one in this checkout, else null. */
export function readDevMasterKey(repoRoot: string): string | null {
  try {
    return fs.readFileSync(devMasterKeyPath(repoRoot), 'utf8').trim() || null;
  } catch {
    return null;
  }
}
