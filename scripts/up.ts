import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { createAccount, createConsoleUser, generatePassword, listConsoleUsers } from '@cfdi/services';
import {
  checkPostgres,
  checkRedis,
  temporalPorts,
  DEFAULT_RETENTION_DAYS,
  ensureDevMasterKey,
  ensureMailpit,
  ensureNamespace,
  formatCheck,
  importCatalogsIfNeeded,
  mailpitArgs,
  startTemporalDevServer,
  startTemporalPostgresServer,
  startJaeger,
  busyPorts,
  stopOnRequest,
  Supervisor,
  waitForHttp,
  waitForPort,
  type PlannedPort,
} from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const varDir = path.join(root, 'var');
const log = (line: string) => process.stdout.write(`[up] ${line}\n`);

/**
 * `npm run up -- --temporal=postgres --api-replicas=2 --workers=3`: the Temporal server on PostgreSQL (databases
 * `temporal` and `temporal_visibility`, UI-less) instead of the embedded dev server, and several API processes (on
 * API_PORT, API_PORT+1, …) and workers. `CFDI_TEMPORAL=postgres` does the same as the flag. Temporal's frontend
 * listens on `--temporal-port` (7233; the server's other gRPC ports follow it, the dev server's UI is 1000 above) and
 * the server's membership ports start at `--temporal-membership-port` (6933, below 32768); its databases are
 * `--temporal-database` (`temporal`) and the same name with `_visibility`. `--traces` starts Jaeger (built from the Go
 * module proxy on first use) and points every process's OpenTelemetry export at it (JAEGER_UI_PORT, JAEGER_OTLP_PORT).
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
      traces: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name}=${raw} must be an integer from ${min} to ${max}`);
    return n;
  };
  if (values.temporal !== 'dev' && values.temporal !== 'postgres')
    throw new Error(`--temporal=${values.temporal} must be dev or postgres`);
  if (!/^[a-z_][a-z0-9_]*$/.test(values['temporal-database']))
    throw new Error(`--temporal-database=${values['temporal-database']} must be a lower-case SQL name`);
  return {
    temporal: values.temporal,
    apiReplicas: int('api-replicas', values['api-replicas'], 1, 8),
    workers: int('workers', values.workers, 1, 8),
    temporalPort: int('temporal-port', values['temporal-port'], 1024, 65_530),
    temporalMembershipPort: int('temporal-membership-port', values['temporal-membership-port'], 1024, 32_764),
    temporalDatabase: values['temporal-database'],
    traces: values.traces,
  };
}

/** The development account and its test key, created on the first run; keys are only shown once, so keep them. */
async function devAccount(
  databaseUrl: string,
  seed: number,
): Promise<{ accountId: string; testKey: string }> {
  const file = path.join(varDir, 'dev-account.json');
  if (fs.existsSync(file)) {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const orm = await createOrm(databaseUrl);
    const exists = await orm.em
      .fork()
      .execute('select 1 from accounts where id = ?', [saved.accountId])
      .finally(() => orm.close());
    if (exists.length) return saved;
  }
  const orm = await createOrm(databaseUrl);
  try {
    const created = await createAccount(
      orm.em.fork(),
      { testSeedCentavos: seed },
      { name: 'Local development' },
    );
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
    if (admin)
      return `${admin.email} (forgot the password? npx cfdi console-users reset-password ${admin.email})`;
    const password = generatePassword();
    const created = await createConsoleUser(orm.em.fork(), {
      email: 'admin@localhost',
      password,
      role: 'admin',
    });
    return `${created.email} / ${password}  (shown once)`;
  } finally {
    await orm.close();
  }
}

async function main(): Promise<void> {
  const { temporal, apiReplicas, workers, temporalPort, temporalMembershipPort, temporalDatabase, traces } =
    readOptions();
  fs.mkdirSync(varDir, { recursive: true });
  process.env.MASTER_KEY ??= ensureDevMasterKey(root);
  const config = loadConfig();

  const checks = [await checkPostgres(config), await checkRedis(config)];
  for (const check of checks) log(formatCheck(check));
  if (checks.some((c) => !c.ok)) process.exit(1);

  if (await ensureDatabase(config.databaseUrl))
    log(`created database ${new URL(config.databaseUrl).pathname.slice(1)}`);
  const orm = await createOrm(config.databaseUrl);
  try {
    const applied = await migrate(orm);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema up to date');
    await importCatalogsIfNeeded(orm, log);
  } finally {
    await orm.close();
  }

  const apiPorts = Array.from({ length: apiReplicas }, (_, i) => config.api.port + i);
  // 3001 unless API replicas take it: then the port after the last replica.
  const consolePort = Number(
    process.env.CONSOLE_PORT ?? (apiPorts.includes(3001) ? apiPorts.at(-1)! + 1 : 3001),
  );
  // The portal listens on PORTAL_URL's port (receipts print that URL; default http://127.0.0.1:3002), or PORTAL_PORT
  // when the URL is a proxy's in front of it.
  const portalPort = Number(process.env.PORTAL_PORT ?? (new URL(config.api.portalUrl).port || 3002));
  const planned: PlannedPort[] = [
    ...apiPorts.map((port) => ({ port, service: 'API', moveWith: 'API_PORT' })),
    { port: consolePort, service: 'console', moveWith: 'CONSOLE_PORT' },
    { port: portalPort, service: 'self-invoicing portal', moveWith: 'PORTAL_URL' },
    {
      port: Number(process.env.PAC_SANDBOX_PORT ?? 3100),
      service: 'sandbox PAC',
      moveWith: 'PAC_SANDBOX_PORT',
    },
  ];
  // Mailpit's own default ports, unless SMTP_URL names a server of the developer's.
  const mailpitPorts = {
    smtp: Number(process.env.MAILPIT_SMTP_PORT ?? 1025),
    http: Number(process.env.MAILPIT_PORT ?? 8025),
  };
  if (!config.mail.smtpUrl)
    planned.push(
      { port: mailpitPorts.smtp, service: 'Mailpit SMTP', moveWith: 'MAILPIT_SMTP_PORT' },
      { port: mailpitPorts.http, service: 'Mailpit web UI', moveWith: 'MAILPIT_PORT' },
    );
  if (!process.env.TEMPORAL_ADDRESS) {
    planned.push({ port: temporalPort, service: 'Temporal', moveWith: '--temporal-port' });
    if (temporal === 'dev')
      planned.push({ port: temporalPort + 1000, service: 'Temporal UI', moveWith: '--temporal-port' });
  }
  const jaegerPorts = {
    uiPort: Number(process.env.JAEGER_UI_PORT ?? 16686),
    otlpPort: Number(process.env.JAEGER_OTLP_PORT ?? 4318),
  };
  if (traces)
    planned.push(
      { port: jaegerPorts.uiPort, service: 'Jaeger UI', moveWith: 'JAEGER_UI_PORT' },
      { port: jaegerPorts.uiPort - 1, service: 'Jaeger query gRPC', moveWith: 'JAEGER_UI_PORT' },
      { port: jaegerPorts.otlpPort, service: 'Jaeger OTLP', moveWith: 'JAEGER_OTLP_PORT' },
    );
  // Before anything starts: a child that cannot bind exits at once, and the reason would be lost in its log.
  const busy = await busyPorts(planned);
  for (const problem of busy) log(problem);
  if (busy.length) process.exit(1);

  const supervisor = new Supervisor((name, code) => {
    log(`${name} exited (${code}); stopping everything`);
    void supervisor.stopAll().then(() => process.exit(1));
  });
  stopOnRequest(supervisor, log);

  if (!process.env.TEMPORAL_ADDRESS && temporal === 'postgres') {
    const pg = new URL(config.databaseUrl);
    process.env.TEMPORAL_ADDRESS = await startTemporalPostgresServer(supervisor, {
      pg: {
        host: pg.hostname,
        port: Number(pg.port || 5432),
        user: decodeURIComponent(pg.username) || 'postgres',
        password: decodeURIComponent(pg.password) || undefined,
      },
      database: temporalDatabase,
      visibilityDatabase: `${temporalDatabase}_visibility`,
      ports: temporalPorts(temporalPort, temporalMembershipPort),
      log,
    });
    log(
      `Temporal server on PostgreSQL at ${process.env.TEMPORAL_ADDRESS} (databases ${temporalDatabase}, ${temporalDatabase}_visibility)`,
    );
  } else if (!process.env.TEMPORAL_ADDRESS) {
    process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, {
      port: temporalPort,
      uiPort: temporalPort + 1000,
      dbFile: path.join(varDir, 'temporal.sqlite'),
      log,
    });
    log(
      `Temporal dev server at ${process.env.TEMPORAL_ADDRESS} (UI http://127.0.0.1:${temporalPort + 1000})`,
    );
  }
  // Every process started below inherits the OTEL_* variables and exports its spans to Jaeger.
  const jaeger = traces ? await startJaeger(supervisor, { ...jaegerPorts, log }) : null;
  if (jaeger) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpEndpoint;
  await ensureNamespace(process.env.TEMPORAL_ADDRESS, config.temporal.namespace, DEFAULT_RETENTION_DAYS);
  log(`namespace ${config.temporal.namespace}: retention ${DEFAULT_RETENTION_DAYS} days`);

  if (!config.mail.smtpUrl) {
    supervisor.start('mailpit', ensureMailpit(log), mailpitArgs(mailpitPorts.smtp, mailpitPorts.http));
    await waitForPort('127.0.0.1', mailpitPorts.smtp, 30_000);
    // The API and the worker inherit it: every e-mail they send lands in Mailpit, none leaves the machine.
    process.env.SMTP_URL = `smtp://127.0.0.1:${mailpitPorts.smtp}`;
  }

  // `node --import tsx`, one process per service: the tsx command would add a wrapper process per service.
  const start = (name: string, entry: string, env: NodeJS.ProcessEnv = {}) => {
    if (fs.existsSync(path.join(root, entry)))
      supervisor.start(name, process.execPath, ['--import', 'tsx', path.join(root, entry)], {
        cwd: root,
        env,
      });
  };
  start('pac', 'apps/pac-sandbox/src/server.ts');
  for (const [i, port] of apiPorts.entries())
    // Every replica names the same public URL (OAuth issuer and resource, signed file URLs): the first one's.
    start(apiReplicas > 1 ? `api-${i + 1}` : 'api', 'apps/api/src/server.ts', {
      API_PORT: String(port),
      PUBLIC_BASE_URL: config.api.publicBaseUrl,
    });
  for (let i = 1; i <= workers; i++) start(workers > 1 ? `worker-${i}` : 'worker', 'apps/worker/src/main.ts');
  supervisor.start(
    'console',
    process.execPath,
    [path.join(root, 'apps/console/server.js'), '--dev', '-p', String(consolePort)],
    {
      cwd: path.join(root, 'apps/console'),
    },
  );
  supervisor.start(
    'portal',
    process.execPath,
    [path.join(root, 'apps/portal/server.js'), '--dev', '-p', String(portalPort)],
    { cwd: path.join(root, 'apps/portal') },
  );
  for (const port of apiPorts) await waitForHttp(`http://${config.api.host}:${port}/ready`, 60_000);

  const account = await devAccount(config.databaseUrl, config.testSeedCentavos);
  log('');
  log(
    `API listening on ${apiPorts.map((port) => `http://${config.api.host}:${port}`).join(', ')}${workers > 1 ? ` (${workers} workers)` : ''}`,
  );
  log(`test API key:    ${account.testKey}`);
  log(`MCP (sandbox):   ${config.api.publicBaseUrl}/mcp/test (OAuth, or the test key as a bearer token)`);
  log(
    `try: curl -H "Authorization: Bearer ${account.testKey}" http://${config.api.host}:${config.api.port}/v1/balance`,
  );
  log(
    `console:         http://127.0.0.1:${consolePort} (admin: ${await firstConsoleAdmin(config.databaseUrl)})`,
  );
  log(`portal:          ${config.api.portalUrl} (receipts' selfInvoiceUrl: ${config.api.portalUrl}/r/<key>)`);
  log(
    config.mail.smtpUrl
      ? `e-mail:          sent through ${new URL(config.mail.smtpUrl).host} (SMTP_URL)`
      : `e-mail (Mailpit): http://127.0.0.1:${mailpitPorts.http} (every message the API sends)`,
  );
  if (jaeger) {
    log(
      `traces:          ${jaeger.uiUrl} (Jaeger${process.env.JAEGER_UI_ASSETS ? '' : ': set JAEGER_UI_ASSETS for its UI'})`,
    );
    log(`  a stamp's:     curl ${jaeger.uiUrl}/api/traces/<trace id of its traceparent header>`);
  }
  log('Ctrl-C stops everything.');
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError ? error.message : `[up] ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
});
