import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { createAccount, createConsoleUser, generatePassword, listConsoleUsers } from '@cfdi/services';
import {
  checkPostgres, checkRedis, temporalPorts, DEFAULT_RETENTION_DAYS, ensureNamespace, formatCheck, importCatalogsIfNeeded, startTemporalDevServer,
  startTemporalPostgresServer, Supervisor, waitForHttp,
} from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const varDir = path.join(root, 'var');
const log = (line: string) => process.stdout.write(`[up] ${line}\n`);
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

/**
 * `npm run up -- --temporal=postgres --api-replicas=2 --workers=3`: the Temporal server on PostgreSQL (databases
 * `temporal` and `temporal_visibility`, UI-less) instead of the embedded dev server, and several API processes (on
 * API_PORT, API_PORT+1, …) and workers. `CFDI_TEMPORAL=postgres` does the same as the flag. Temporal's frontend
 * listens on `--temporal-port` (7233; the server's other gRPC ports follow it, the dev server's UI is 1000 above) and
 * the server's membership ports start at `--temporal-membership-port` (6933, below 32768); its databases are
 * `--temporal-database` (`temporal`) and the same name with `_visibility`.
 */
function readOptions() {
  const { values } = parseArgs({
    options: {
      temporal: { type: 'string', default: process.env.CFDI_TEMPORAL ?? 'dev' },
      'api-replicas': { type: 'string', default: '1' },
      workers: { type: 'string', default: '1' },
      'temporal-port': { type: 'string', default: '7233' },
      'temporal-membership-port': { type: 'string', default: '6933' },
      'temporal-database': { type: 'string', default: 'temporal' },
    },
  });
  const int = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name}=${raw} must be an integer from ${min} to ${max}`);
    return n;
  };
  if (values.temporal !== 'dev' && values.temporal !== 'postgres') throw new Error(`--temporal=${values.temporal} must be dev or postgres`);
  if (!/^[a-z_][a-z0-9_]*$/.test(values['temporal-database'])) throw new Error(`--temporal-database=${values['temporal-database']} must be a lower-case SQL name`);
  return {
    temporal: values.temporal,
    apiReplicas: int('api-replicas', values['api-replicas'], 1, 8),
    workers: int('workers', values.workers, 1, 8),
    temporalPort: int('temporal-port', values['temporal-port'], 1024, 65_530),
    temporalMembershipPort: int('temporal-membership-port', values['temporal-membership-port'], 1024, 32_764),
    temporalDatabase: values['temporal-database'],
  };
}

/** A local master key for CSD encryption and signed URLs, generated once and kept in var/ (git-ignored). */
function devMasterKey(): string {
  const file = path.join(varDir, 'dev-master-key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** The development account and its test key, created on the first run; keys are only shown once, so keep them. */
async function devAccount(databaseUrl: string, seed: number): Promise<{ accountId: string; testKey: string }> {
  const file = path.join(varDir, 'dev-account.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const orm = await createOrm(databaseUrl);
    const exists = await orm.em.fork().execute('select 1 from accounts where id = ?', [saved.accountId]).finally(() => orm.close());
    if (exists.length) return saved;
  }
  const orm = await createOrm(databaseUrl);
  try {
    const created = await createAccount(orm.em.fork(), { testSeedCentavos: seed }, { name: 'Local development' });
    fs.writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
    return created;
  } finally {
    await orm.close();
  }
}

/**
 * The first console admin, created once with a generated password printed this time only (no default password
 * exists); later runs point at `cfdi console-users reset-password`.
 */
async function firstConsoleAdmin(databaseUrl: string): Promise<string> {
  const orm = await createOrm(databaseUrl);
  try {
    const admin = (await listConsoleUsers(orm.em.fork())).find((u) => u.role === 'admin' && !u.disabledAt);
    if (admin) return `${admin.email} (forgot the password? npx cfdi console-users reset-password ${admin.email})`;
    const password = generatePassword();
    const created = await createConsoleUser(orm.em.fork(), { email: 'admin@localhost', password, role: 'admin' });
    return `${created.email} / ${password}  (shown once)`;
  } finally {
    await orm.close();
  }
}

async function main(): Promise<void> {
  const { temporal, apiReplicas, workers, temporalPort, temporalMembershipPort, temporalDatabase } = readOptions();
  fs.mkdirSync(varDir, { recursive: true });
  process.env.MASTER_KEY ??= devMasterKey();
  const config = loadConfig();

  const checks = [await checkPostgres(config), await checkRedis(config)];
  for (const check of checks) log(formatCheck(check));
  if (checks.some((c) => !c.ok)) process.exit(1);

  if (await ensureDatabase(config.databaseUrl)) log(`created database ${new URL(config.databaseUrl).pathname.slice(1)}`);
  const orm = await createOrm(config.databaseUrl);
  try {
    const applied = await migrate(orm);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema up to date');
    await importCatalogsIfNeeded(orm, log);
  } finally {
    await orm.close();
  }

  const supervisor = new Supervisor((name, code) => {
    log(`${name} exited (${code}); stopping everything`);
    void supervisor.stopAll().then(() => process.exit(1));
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping…`);
    void supervisor.stopAll().then(() => process.exit(0));
  };
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and a second SIGINT
  // without a handler would kill it halfway through stopping the services.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  if (!process.env.TEMPORAL_ADDRESS && temporal === 'postgres') {
    const pg = new URL(config.databaseUrl);
    process.env.TEMPORAL_ADDRESS = await startTemporalPostgresServer(supervisor, {
      pg: { host: pg.hostname, port: Number(pg.port || 5432), user: decodeURIComponent(pg.username) || 'postgres', password: decodeURIComponent(pg.password) || undefined },
      database: temporalDatabase, visibilityDatabase: `${temporalDatabase}_visibility`, ports: temporalPorts(temporalPort, temporalMembershipPort), log,
    });
    log(`Temporal server on PostgreSQL at ${process.env.TEMPORAL_ADDRESS} (databases ${temporalDatabase}, ${temporalDatabase}_visibility)`);
  } else if (!process.env.TEMPORAL_ADDRESS) {
    process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, {
      port: temporalPort, uiPort: temporalPort + 1000, dbFile: path.join(varDir, 'temporal.sqlite'), log,
    });
    log(`Temporal dev server at ${process.env.TEMPORAL_ADDRESS} (UI http://127.0.0.1:${temporalPort + 1000})`);
  }
  await ensureNamespace(process.env.TEMPORAL_ADDRESS, config.temporal.namespace, DEFAULT_RETENTION_DAYS);
  log(`namespace ${config.temporal.namespace}: retention ${DEFAULT_RETENTION_DAYS} days`);

  const start = (name: string, entry: string, env: NodeJS.ProcessEnv = {}) => {
    if (fs.existsSync(path.join(root, entry))) supervisor.start(name, tsx, [path.join(root, entry)], { cwd: root, env });
  };
  start('pac', 'apps/pac-sandbox/src/server.ts');
  const apiPorts = Array.from({ length: apiReplicas }, (_, i) => config.api.port + i);
  for (const [i, port] of apiPorts.entries()) start(apiReplicas > 1 ? `api-${i + 1}` : 'api', 'apps/api/src/server.ts', { API_PORT: String(port) });
  for (let i = 1; i <= workers; i++) start(workers > 1 ? `worker-${i}` : 'worker', 'apps/worker/src/main.ts');
  // 3001 unless API replicas take it: then the port after the last replica.
  const consolePort = Number(process.env.CONSOLE_PORT ?? (apiPorts.includes(3001) ? apiPorts.at(-1)! + 1 : 3001));
  supervisor.start('console', process.execPath, [require.resolve('next/dist/bin/next', { paths: [path.join(root, 'apps/console')] }), 'dev', '-p', String(consolePort)], {
    cwd: path.join(root, 'apps/console'),
  });
  for (const port of apiPorts) await waitForHttp(`http://${config.api.host}:${port}/ready`, 60_000);

  const account = await devAccount(config.databaseUrl, config.testSeedCentavos);
  log('');
  log(`API listening on ${apiPorts.map((port) => `http://${config.api.host}:${port}`).join(', ')}${workers > 1 ? ` (${workers} workers)` : ''}`);
  log(`test API key:    ${account.testKey}`);
  log(`try: curl -H "Authorization: Bearer ${account.testKey}" http://${config.api.host}:${config.api.port}/v1/balance`);
  log(`console:         http://127.0.0.1:${consolePort} (admin: ${await firstConsoleAdmin(config.databaseUrl)})`);
  log('Ctrl-C stops everything.');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : `[up] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
