import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { createAccount, createConsoleUser, generatePassword, listConsoleUsers } from '@cfdi/services';
import { checkPostgres, checkRedis, formatCheck, importCatalogsIfNeeded, startTemporalDevServer, Supervisor, waitForHttp } from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const varDir = path.join(root, 'var');
const log = (line: string) => process.stdout.write(`[up] ${line}\n`);
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

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

  if (!process.env.TEMPORAL_ADDRESS) {
    process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, {
      port: 7233, uiPort: 8233, dbFile: path.join(varDir, 'temporal.sqlite'), log,
    });
    log(`Temporal dev server at ${process.env.TEMPORAL_ADDRESS} (UI http://127.0.0.1:8233)`);
  }

  const services: [string, string][] = [
    ['pac', 'apps/pac-sandbox/src/server.ts'],
    ['api', 'apps/api/src/server.ts'],
    ['worker', 'apps/worker/src/main.ts'],
  ];
  for (const [name, entry] of services) {
    if (fs.existsSync(path.join(root, entry))) supervisor.start(name, tsx, [path.join(root, entry)], { cwd: root });
  }
  const consolePort = Number(process.env.CONSOLE_PORT ?? 3001);
  supervisor.start('console', process.execPath, [require.resolve('next/dist/bin/next', { paths: [path.join(root, 'apps/console')] }), 'dev', '-p', String(consolePort)], {
    cwd: path.join(root, 'apps/console'),
  });
  await waitForHttp(`http://${config.api.host}:${config.api.port}/ready`, 60_000);

  const account = await devAccount(config.databaseUrl, config.testSeedCentavos);
  log('');
  log(`API listening on http://${config.api.host}:${config.api.port}`);
  log(`test API key:    ${account.testKey}`);
  log(`try: curl -H "Authorization: Bearer ${account.testKey}" http://${config.api.host}:${config.api.port}/v1/balance`);
  log(`console:         http://127.0.0.1:${consolePort} (admin: ${await firstConsoleAdmin(config.databaseUrl)})`);
  log('Ctrl-C stops everything.');
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : `[up] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
