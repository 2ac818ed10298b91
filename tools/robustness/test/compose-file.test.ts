import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { TEMPORAL_CONFIG_DIR, TEMPORAL_SERVER_VERSION } from '@cfdi/devstack';
import { REPLICA_TOPOLOGY } from '../src/replicas/replicas';

// docker-compose.yml cannot run here (no Docker engine): it is checked against the Compose specification's JSON
// Schema (vendored in test/compose/, see its README) and against the code it deploys, so it cannot drift from what
// the replica test runs.
const root = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { environment?: string; file?: string }>;
};
const services = compose.services;

interface Service {
  image?: string;
  secrets?: string[];
  ports?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { disable?: boolean; test?: string[] };
  deploy?: { replicas?: number };
  restart?: string;
}

/** Services built from this repository's image (API, worker, console, sandbox PAC, migrations). */
const APP_SERVICES = ['api', 'worker', 'console', 'pac-sandbox', 'migrate'];

/**
 * Every environment variable a platform process reads: packages/config's, the sandbox PAC's own, the tracing switch
 * (packages/telemetry) and the standard OTEL_* ones the OpenTelemetry SDK reads itself.
 */
function variablesTheCodeReads(): Set<string> {
  const names = new Set<string>([
    'OTEL_TRACES_SAMPLER',
    'OTEL_TRACES_SAMPLER_ARG',
    'OTEL_RESOURCE_ATTRIBUTES',
  ]);
  for (const file of [
    'packages/config/src/config.ts',
    'packages/config/src/paths.ts',
    'apps/pac-sandbox/src/config.ts',
    'packages/telemetry/src/settings.ts',
  ]) {
    for (const [, name] of read(file).matchAll(/\b(?:env\.|\[')([A-Z][A-Z0-9_]+)/g)) names.add(name!);
    for (const [, name] of read(file).matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)) names.add(name!);
  }
  // Any of them may come from a file (packages/config's withSecretFiles).
  for (const name of [...names]) names.add(`${name}_FILE`);
  return names;
}

test('docker-compose.yml is valid against the Compose specification', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'compose/compose-spec.json'), 'utf8'));
  delete schema.$schema; // draft-07 under an https URL that Ajv does not know by that name
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  const valid = validate(compose);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
});

test('no secret has a default: each is required with ${VAR:?message}, and none is written in the file', () => {
  const secret = /PASSWORD|SECRET|TOKEN|MASTER_KEY|ACCESS_KEY|PWD/;
  for (const [, name, operator, rest] of composeText.matchAll(/\$\{([A-Z0-9_]+)(:[?-])?([^}]*)\}/g)) {
    // A `<NAME>_FILE` default is a path on the host (an empty file), not a secret.
    if (secret.test(name!) && !name!.endsWith('_FILE') && operator === ':-')
      expect(`${name} defaults to "${rest}"`).toBe(`${name} defaults to ""`);
  }
  for (const required of [
    'POSTGRES_PASSWORD',
    'REDIS_PASSWORD',
    'MASTER_KEY',
    'METRICS_TOKEN',
    'MINIO_ROOT_USER',
    'MINIO_ROOT_PASSWORD',
    'PUBLIC_BASE_URL',
  ]) {
    expect(composeText).toMatch(new RegExp(`\\$\\{${required}:\\?[^}]+\\}`));
    expect(composeText).not.toMatch(new RegExp(`\\$\\{${required}(:-|\\})`));
  }
  for (const [name, service] of Object.entries(services)) {
    for (const [key, value] of Object.entries(service.environment ?? {})) {
      // `<NAME>_FILE` names a Compose secret's path, not the secret.
      if (
        secret.test(key) &&
        !(key.endsWith('_FILE') && String(value).startsWith('/run/secrets/')) &&
        !/^\$\{[A-Z0-9_]+:[?-][^}]*\}$/.test(String(value)) &&
        !/:\$\{[A-Z0-9_]+:\?/.test(String(value))
      ) {
        throw new Error(`${name}: ${key} is written in the file instead of coming from a required variable`);
      }
    }
  }
});

test('every dependency waits for health or completion, and what is waited on can report it', () => {
  for (const [name, service] of Object.entries(services)) {
    if (!service.depends_on) continue;
    expect(Array.isArray(service.depends_on) ? `${name}: short depends_on` : name).toBe(name);
    for (const [dependency, { condition }] of Object.entries(
      service.depends_on as Record<string, { condition: string }>,
    )) {
      expect(services[dependency]).toBeDefined();
      expect([
        `${name} → ${dependency}`,
        ['service_healthy', 'service_completed_successfully'].includes(condition),
      ]).toEqual([`${name} → ${dependency}`, true]);
      const target = services[dependency]!;
      if (condition === 'service_healthy')
        expect([
          dependency,
          Boolean(target.healthcheck?.test?.length) && !target.healthcheck?.disable,
        ]).toEqual([dependency, true]);
      if (condition === 'service_completed_successfully')
        expect([dependency, target.restart]).toEqual([dependency, 'no']);
    }
  }
  expect(composeText).not.toMatch(/auto-setup/);
});

test('the app services set only variables the code reads, and run the builds of the entry points the replica test starts', () => {
  const known = variablesTheCodeReads();
  known.add('HEALTHCHECK_URL'); // the image's HEALTHCHECK (Dockerfile)
  for (const name of APP_SERVICES) {
    const unknown = Object.keys(services[name]!.environment ?? {}).filter((key) => !known.has(key));
    expect([name, unknown]).toEqual([name, []]);
  }
  // `node apps/x/dist/y.js` is the bundle of apps/x/src/y.ts, which the replica stack runs through tsx.
  for (const name of ['api', 'worker', 'pac-sandbox']) {
    const entry = services[name]!.command![1]!;
    expect(fs.existsSync(path.join(root, entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(
      true,
    );
  }
  expect(read('tools/robustness/src/stack.ts')).toEqual(expect.stringContaining("'apps/api/src/server.ts'"));
  expect(read('tools/robustness/src/stack.ts')).toEqual(expect.stringContaining("'apps/worker/src/main.ts'"));
});

test('the replica test runs at least as many APIs and workers as the compose file deploys', () => {
  expect(services.api!.deploy!.replicas).toBeGreaterThanOrEqual(2);
  expect(services.worker!.deploy!.replicas).toBeGreaterThanOrEqual(2);
  expect(REPLICA_TOPOLOGY.apis).toBeGreaterThanOrEqual(services.api!.deploy!.replicas!);
  expect(REPLICA_TOPOLOGY.workers).toBeGreaterThanOrEqual(services.worker!.deploy!.replicas!);
});

test('Temporal: the same release as devstack builds, configured through the variables of the committed config', () => {
  const version = TEMPORAL_SERVER_VERSION.replace(/^v/, '');
  expect(services.temporal!.image).toBe(`temporalio/server:${version}`);
  for (const name of ['temporal-schema', 'temporal-namespace'])
    expect(services[name]!.image!.startsWith(`temporalio/admin-tools:${version}-`)).toBe(true);
  const config = fs.readFileSync(path.join(TEMPORAL_CONFIG_DIR, 'config', 'postgres.yaml'), 'utf8');
  const configVariables = new Set([...config.matchAll(/env "([A-Z0-9_]+)"/g)].map((m) => m[1]!));
  // DB picks the SQL plugin in the image's template; the committed config is PostgreSQL only.
  const unknown = Object.keys(services.temporal!.environment!).filter(
    (key) => key !== 'DB' && !configVariables.has(key),
  );
  expect(unknown).toEqual([]);
  expect(services.temporal!.environment!.DB).toBe('postgres12');
});

test('least privilege: each service gets only the secrets its code uses', () => {
  const env = (name: string) => Object.keys(services[name]!.environment ?? {});
  // MASTER_KEY, the retired master keys and METRICS_TOKEN: Compose secrets (files), for the API and the workers only.
  expect(Object.values(compose.secrets).map((secret) => secret.environment ?? secret.file)).toEqual([
    'MASTER_KEY',
    'METRICS_TOKEN',
    '${MASTER_KEYS_PREVIOUS_FILE:-./deploy/compose/no-previous-master-keys}',
  ]);
  // With no rotation under way, the retired keys are an empty file (MASTER_KEYS_PREVIOUS unset).
  expect(read('deploy/compose/no-previous-master-keys')).toBe('');
  for (const [name, service] of Object.entries(services)) {
    expect([
      name,
      env(name).filter((key) => /^(MASTER_KEY|MASTER_KEYS_PREVIOUS|METRICS_TOKEN)$/.test(key)),
    ]).toEqual([name, []]);
    const expected = ['api', 'worker'].includes(name)
      ? ['master_key', 'master_keys_previous', 'metrics_token']
      : [];
    expect([name, service.secrets ?? []]).toEqual([name, expected]);
  }
  for (const name of ['api', 'worker']) {
    expect(services[name]!.environment).toMatchObject({
      MASTER_KEY_FILE: '/run/secrets/master_key',
      MASTER_KEYS_PREVIOUS_FILE: '/run/secrets/master_keys_previous',
      METRICS_TOKEN_FILE: '/run/secrets/metrics_token',
    });
  }
  // Stripe: the API alone. The PAC's credentials: the processes that call it (API, worker, console's lookups).
  for (const name of Object.keys(services))
    if (name !== 'api')
      expect([name, env(name).filter((key) => key.startsWith('STRIPE_'))]).toEqual([name, []]);
  for (const name of ['pac-sandbox', 'migrate'])
    expect([name, env(name).filter((key) => /^PAC_(URL|USERNAME|PASSWORD)$|^S3_|^REDIS/.test(key))]).toEqual([
      name,
      [],
    ]);
  expect(env('pac-sandbox').filter((key) => !/^(PAC_SANDBOX|OTEL)_/.test(key))).toEqual([
    'NODE_ENV',
    'HEALTHCHECK_URL',
  ]);
  expect(env('migrate').sort()).toEqual(['DATABASE_URL', 'NODE_ENV']);
  // The worker never uses Redis.
  expect(env('worker')).not.toContain('REDIS_URL');
});

test('Redis needs a password, the Temporal UI is reachable from the host only, the worker has probes', () => {
  expect(services.redis!.command!.join(' ')).toContain('--requirepass');
  for (const name of ['api', 'console'])
    expect(services[name]!.environment!.REDIS_URL).toMatch(
      /^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/,
    );
  for (const port of services['temporal-ui']!.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
  expect(services.worker!.environment).toMatchObject({
    WORKER_HEALTH_PORT: '9464',
    WORKER_HEALTH_HOST: '0.0.0.0',
  });
  expect(services.worker!.healthcheck?.disable).toBeFalsy();
});
