import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { repoRoot } from './paths';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-secrets-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const secretFile = (name: string, contents: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, contents);
  return file;
};
const masterKey = Buffer.alloc(32, 7).toString('base64');

function problems(env: Record<string, string>, options?: Parameters<typeof loadConfig>[1]): string[] {
  try {
    loadConfig(env, options);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

it('reads any variable from <NAME>_FILE, dropping the trailing newline an editor leaves', () => {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL_FILE: secretFile('database-url', 'postgres://cfdi:s3cret@db:5432/cfdi\n'),
    REDIS_URL_FILE: secretFile('redis-url', 'redis://:pw@redis:6379'),
    MASTER_KEY_FILE: secretFile('master-key', `${masterKey}\n`),
    METRICS_TOKEN_FILE: secretFile('metrics-token', 'tok\n'),
    PAC_PASSWORD_FILE: secretFile('pac-password', 'pac pass with spaces\n'),
    STRIPE_SECRET_KEY_FILE: secretFile('stripe-key', 'sk_live_abc123\n'),
    STRIPE_WEBHOOK_SECRET_FILE: secretFile('stripe-whsec', 'whsec_live1\n'),
    STRIPE_SUCCESS_URL: 'https://console.example/paid',
    STRIPE_CANCEL_URL: 'https://console.example/billing',
    STRIPE_PORTAL_RETURN_URL: 'https://console.example/billing',
  });
  expect(config.databaseUrl).toBe('postgres://cfdi:s3cret@db:5432/cfdi');
  expect(config.redisUrl).toBe('redis://:pw@redis:6379');
  expect(config.masterKey?.key.equals(Buffer.from(masterKey, 'base64'))).toBe(true);
  expect(config.metricsToken).toBe('tok');
  expect(config.pac.password).toBe('pac pass with spaces');
  expect(config.billing.live).toEqual({ secretKey: 'sk_live_abc123', webhookSecret: 'whsec_live1' });
});

it('refuses a variable set both ways, and a file that cannot be read', () => {
  expect(problems({ METRICS_TOKEN: 'a', METRICS_TOKEN_FILE: secretFile('token', 'b') })).toEqual([
    'METRICS_TOKEN and METRICS_TOKEN_FILE are both set: keep one',
  ]);
  expect(problems({ MASTER_KEY_FILE: path.join(dir, 'missing') })).toEqual([
    `MASTER_KEY_FILE="${path.join(dir, 'missing')}" cannot be read: ENOENT`,
  ]);
});

it("leaves other programs' *_FILE variables alone", () => {
  expect(problems({ TF_CLI_CONFIG_FILE: '/nonexistent/.terraformrc', SOME_FILE: '/nope' })).toEqual([]);
});

it('starts without MASTER_KEY in live mode only where the process never uses it (console, CLI)', () => {
  const production = { NODE_ENV: 'production' };
  expect(problems(production)).toEqual([
    'MASTER_KEY is required when LIVE_ENABLED=true: CSD keys cannot be stored unencrypted',
  ]);
  expect(problems(production, { requireMasterKey: false })).toEqual([]);
});

it('reads only variables that .env.example documents (so the Helm chart check knows them all)', () => {
  const documented = new Set(
    [
      ...fs
        .readFileSync(path.join(repoRoot(), '.env.example'), 'utf8')
        .matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm),
    ].map((m) => m[1]!),
  );
  const read = new Set<string>();
  const recording = (env: Record<string, string>) =>
    new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string' && !name.endsWith('_FILE')) read.add(name);
        return target[name as string];
      },
    });
  // Every branch: S3 storage, both Stripe modes, live mode on.
  loadConfig(
    recording({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'cfdi',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_ENDPOINT: 'http://minio:9000',
      STRIPE_SECRET_KEY: 'sk_test_a',
      STRIPE_WEBHOOK_SECRET: 'whsec_a',
      STRIPE_TEST_SECRET_KEY: 'sk_test_b',
      STRIPE_TEST_WEBHOOK_SECRET: 'whsec_b',
      STRIPE_SUCCESS_URL: 'https://x.example/a',
      STRIPE_CANCEL_URL: 'https://x.example/b',
      STRIPE_PORTAL_RETURN_URL: 'https://x.example/c',
      MASTER_KEY: masterKey,
      WORKER_HEALTH_PORT: '9464',
    }),
  );
  expect(read.size).toBeGreaterThan(50);
  expect([...read].filter((name) => !documented.has(name))).toEqual([]);
});
