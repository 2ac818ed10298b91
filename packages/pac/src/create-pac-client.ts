import { FinkokPac, type FinkokPacOptions } from './finkok/finkok-pac';
import { NullPac } from './null-pac';
import type { PacClient } from './types';

export type PacSettings = Partial<Pick<FinkokPacOptions, 'url' | 'username' | 'password'>> &
  Omit<FinkokPacOptions, 'url' | 'username' | 'password'>;

/** The Finkok adapter when URL and credentials are configured, otherwise the `NullPac`. */
export function createPacClient(settings: PacSettings): PacClient {
  const { url, username, password } = settings;
  if (!url || !username || !password) return new NullPac();
  return new FinkokPac({ ...settings, url, username, password });
}
