import { AppError } from '../errors';
import type { MasterKeyring } from './secret-box';

/** 503 `encryption_unavailable` on a server without MASTER_KEY: `what` cannot be stored unencrypted. */
export function requireMasterKey(masterKey: MasterKeyring | null, what: string): MasterKeyring {
  if (!masterKey) {
    throw new AppError(
      503,
      'encryption_unavailable',
      'Service unavailable',
      `This server has no MASTER_KEY configured, so it cannot store ${what}. Ask the operator to set one.`,
    );
  }
  return masterKey;
}
