import { loadConfig, type Config } from '@cfdi/config';

/** Defaults for test processes; the root test command sets the same values explicitly. */
export const TEST_ENV_DEFAULTS: Record<string, string> = {
  NODE_ENV: 'test',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/cfdi_test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  STORAGE_DIR: 'var/test-storage',
  // A fixed, public test master key: test data only, never used outside tests.
  MASTER_KEY: 'dGVzdC1vbmx5LW1hc3Rlci1rZXktMzItYnl0ZXMhISE=',
};

export function applyTestEnv(): void {
  for (const [name, value] of Object.entries(TEST_ENV_DEFAULTS)) process.env[name] ??= value;
}

export function testConfig(overrides: Record<string, string> = {}): Readonly<Config> {
  applyTestEnv();
  return loadConfig({ ...process.env, ...overrides });
}
