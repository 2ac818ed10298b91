import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';
import {
  DEFAULT_RETENTION_DAYS,
  ensureNamespace,
  freePort,
  importCatalogsIfNeeded,
  startTemporalDevServer,
  startTemporalPostgresServer,
  Supervisor,
  temporalPorts,
  waitForHttp,
} from '@cfdi/devstack';
import { createMerchantAccount, stackEnv } from '@cfdi/testkit';

const root = path.resolve(__dirname, '../../..');
const PG = process.env.DRILL_PG_HOST ?? '127.0.0.1:5432';
const TEMPORAL_DATABASES = ['temporal', 'temporal_visibility'];

/** A Supervisor that remembers each child by name, so one can be killed and started again. */
class NamedSupervisor extends Supervisor {
  readonly byName = new Map<string, ChildProcess>();
  override start(
    name: string,
    command: string,
    args: string[],
    options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
  ): ChildProcess {
    const child = super.start(name, command, args, options);
    this.byName.set(name, child);
    return child;
  }
}

export interface StackOptions {
  /** Prefix of the stack's database names and task queue. */
  name: string;
  /** Extra environment of the API and worker. */
  env?: Record<string, string>;
  /** Replaces apps/api/src/server.ts as the API's entry (the fuzzer's entry also watches the event loop). */
  apiEntry?: string;
  /** No worker, no Temporal: enough for a fuzzer that never waits for a stamp. */
  withoutWorker?: boolean;
  /** API processes (each on its own port, all sharing the databases, Redis and Temporal). Default 1. */
  apis?: number;
  /** Worker processes polling the same task queues. Default 1. */
  workers?: number;
  /**
   * `dev`: the Temporal CLI's dev server (SQLite on disk). `postgres`: the Temporal server on PostgreSQL, as
   * production runs it, in the databases `<databasePrefix>temporal` and `<databasePrefix>temporal_visibility`.
   */
  temporal?: 'dev' | 'postgres';
  /** Prefix of every database the stack creates (`<prefix>cfdi_<name>_<random>`…). Default none. */
  databasePrefix?: string;
  /**
   * Fixed ports instead of free ones: APIs from `apiFrom`, the sandbox PAC at `pac`, the Temporal server's gRPC
   * ports from `temporalFrom` and its membership ports from `temporalMembershipFrom` (below 32768).
   */
  ports?: { apiFrom: number; pac: number; temporalFrom: number; temporalMembershipFrom: number };
  /** Each worker serves /live, /ready and /metrics on a port of its own (WORKER_HEALTH_PORT); see `workerHealth`. */
  workerHealth?: boolean;
  log: (line: string) => void;
}

export interface Stack {
  /** The first API; `bases` has every API replica's, in order. */
  base: string;
  bases: string[];
  pacUrl: string;
  databaseUrl: string;
  pacDatabaseUrl: string;
  orm: Orm;
  env: Record<string, string>;
  /** The first API process (its stdio and, with `apiEntry`, its IPC channel). */
  api: ChildProcess;
  /** SIGKILLs worker `index` (default the first); it stays down until `startWorker(index)`. */
  killWorker(index?: number): void;
  startWorker(index?: number): void;
  /** Worker `index`'s probe and metrics base URL (with `workerHealth`). */
  workerHealth: string[];
  /** SIGTERM to worker `index` (it stays down, like a killed one); resolves with its exit code. */
  terminateWorker(index: number): Promise<number | null>;
  /** SIGTERM to API `index` (not started again); resolves with its exit code. */
  terminateApi(index: number): Promise<number | null>;
  /** Stops API `index` (SIGTERM, as a rolling restart does), starts it again and waits until it answers. */
  restartApi(index: number): Promise<void>;
  restartTemporal(): Promise<void>;
  newMerchantAccount(serie?: string): Promise<{ accountId: string; key: string; merchantId: string }>;
  close(options?: { dropDatabases?: boolean }): Promise<void>;
}

const signal = (child: ChildProcess | undefined, name: NodeJS.Signals) => {
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  }
};

/**
 * SIGTERM, then SIGKILL after 15 s, and wait for the exit; nothing when the child has already ended. Bounded: a
 * process that ignores SIGTERM (or has already gone) must not stall a drill or a replica run.
 */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signal(child, 'SIGTERM');
  const killLater = setTimeout(() => signal(child, 'SIGKILL'), 15_000);
  await exited;
  clearTimeout(killLater);
}

/**
 * The platform in processes of its own (API, worker, sandbox PAC, Temporal dev server with its history on disk so a
 * restart keeps it), on free ports, with databases and a task queue named after `name` plus a random suffix, the
 * way bench/stamp/run.ts starts it. Nothing is shared with a developer's stack or another run.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const id = `${options.name}_${randomBytes(3).toString('hex')}`;
  const prefix = options.databasePrefix ?? '';
  const databaseUrl = `postgres://postgres@${PG}/${prefix}cfdi_${id}`;
  const pacDatabaseUrl = `postgres://postgres@${PG}/${prefix}pac_${id}`;
  const temporalDatabases = TEMPORAL_DATABASES.map((name) => `${prefix}${name}`);
  const apiCount = options.apis ?? 1;
  const workerCount = options.withoutWorker ? 0 : (options.workers ?? 1);
  const apiPorts = options.ports
    ? Array.from({ length: apiCount }, (_, i) => options.ports!.apiFrom + i)
    : await Promise.all(Array.from({ length: apiCount }, () => freePort()));
  const pacPort = options.ports?.pac ?? (await freePort());
  const workerHealthPorts = options.workerHealth
    ? await Promise.all(Array.from({ length: workerCount }, () => freePort()))
    : [];
  const temporalPort = options.ports?.temporalFrom ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${id}-`));
  const env: Record<string, string> = {
    ...stackEnv({
      databaseUrl,
      pacDatabaseUrl,
      apiPort: apiPorts[0]!,
      pacPort,
      taskQueue: `${id}-v1`,
      storageDir: path.join(dir, 'storage'),
      logLevel: 'error',
    }),
    API_HOST: '127.0.0.1',
    // APIs stop at once unless a test measures the drain (operations.test.ts sets its own).
    DRAIN_DELAY_MS: '0',
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    ...options.env,
  };
  const config = loadConfig({ ...process.env, ...env });
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  await importCatalogsIfNeeded(orm, options.log);
  const dropDatabases = async (names: string[]) => {
    const admin = await createOrm(`postgres://postgres@${PG}/postgres`);
    try {
      for (const name of names) await admin.em.fork().execute(`drop database if exists ${name} with (force)`);
    } finally {
      await admin.close();
    }
  };
  // Temporal's databases have fixed names: a run starts from empty ones.
  if (options.temporal === 'postgres') await dropDatabases(temporalDatabases);

  // Like a process manager in production, the stack restarts a worker that dies on its own (one that loses Temporal
  // while the dev server restarts exits 1); a worker killed on purpose stays down until `startWorker`.
  const killed = new Set<string>();
  let closing = false;
  const supervisor = new NamedSupervisor((name, code) => {
    options.log(`${name} exited (${code})`);
    if (!name.startsWith('worker') || closing) return;
    if (killed.has(name)) killed.delete(name);
    else setTimeout(() => !closing && startWorker(Number(name.split('-')[1] ?? 0)), 2000);
  });
  const temporal = async () => {
    if (options.temporal !== 'postgres') {
      await startTemporalDevServer(supervisor, {
        port: temporalPort,
        dbFile: path.join(dir, 'temporal.db'),
        logLevel: 'error',
        log: options.log,
      });
      return;
    }
    const [host, port] = PG.split(':');
    await startTemporalPostgresServer(supervisor, {
      pg: { host: host!, port: Number(port ?? 5432), user: 'postgres' },
      database: temporalDatabases[0]!,
      visibilityDatabase: temporalDatabases[1]!,
      ports: temporalPorts(temporalPort, options.ports?.temporalMembershipFrom ?? 6933),
      logLevel: 'fatal',
      log: options.log,
    });
  };
  const startApp = (name: string, entry: string, extraEnv: Record<string, string> = {}) =>
    supervisor.start(name, process.execPath, ['--import', 'tsx', path.join(root, entry)], {
      cwd: root,
      env: { ...process.env, ...env, ...extraEnv },
    });
  if (workerCount > 0) {
    await temporal();
    await ensureNamespace(env.TEMPORAL_ADDRESS!, config.temporal.namespace, DEFAULT_RETENTION_DAYS);
  }
  startApp('pac', 'apps/pac-sandbox/src/server.ts');
  const apiName = (index: number) => (index === 0 ? 'api' : `api-${index}`);
  const startApi = (index: number) =>
    startApp(apiName(index), 'apps/api/src/server.ts', { API_PORT: String(apiPorts[index]) });
  const api = options.apiEntry
    ? spawn(process.execPath, ['--import', 'tsx', options.apiEntry], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        detached: true,
      })
    : startApi(0);
  for (let i = 1; i < apiCount; i++) startApi(i);
  const workerName = (index: number) => (index === 0 ? 'worker' : `worker-${index}`);
  const startWorker = (index = 0) =>
    void startApp(
      workerName(index),
      'apps/worker/src/main.ts',
      options.workerHealth ? { WORKER_HEALTH_PORT: String(workerHealthPorts[index]) } : {},
    );
  const terminate = (child: ChildProcess | undefined) =>
    new Promise<number | null>((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null)
        return resolve(child?.exitCode ?? null);
      child.once('exit', (code) => resolve(code));
      signal(child, 'SIGTERM');
    });
  for (let i = 0; i < workerCount; i++) startWorker(i);
  const bases = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  const base = bases[0]!;
  for (const url of bases) await waitForHttp(`${url}/health`, 120_000);
  await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 120_000);

  return {
    base,
    bases,
    pacUrl: env.PAC_SANDBOX_URL!,
    databaseUrl,
    pacDatabaseUrl,
    orm,
    env,
    api,
    killWorker: (index = 0) => {
      killed.add(workerName(index));
      signal(supervisor.byName.get(workerName(index)), 'SIGKILL');
    },
    startWorker,
    workerHealth: workerHealthPorts.map((port) => `http://127.0.0.1:${port}`),
    terminateWorker(index) {
      killed.add(workerName(index));
      return terminate(supervisor.byName.get(workerName(index)));
    },
    terminateApi: (index) => terminate(index === 0 ? api : supervisor.byName.get(apiName(index))),
    async restartApi(index) {
      await stopChild(supervisor.byName.get(apiName(index)));
      startApi(index);
      await waitForHttp(`${bases[index]}/health`, 120_000);
    },
    async restartTemporal() {
      await stopChild(supervisor.byName.get('temporal'));
      await temporal();
    },
    async newMerchantAccount(serie = 'A') {
      const { accountId, key, merchantId } = await createMerchantAccount(orm, config, base, {
        name: id,
        serie,
      });
      return { accountId, key, merchantId };
    },
    async close({ dropDatabases: drop = true } = {}) {
      closing = true;
      signal(api, 'SIGKILL');
      await supervisor.stopAll(5000);
      await orm.close();
      if (drop) {
        const temporalOnes = options.temporal === 'postgres' ? temporalDatabases : [];
        await dropDatabases(
          [databaseUrl, pacDatabaseUrl].map((url) => url.split('/').pop()!).concat(temporalOnes),
        );
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
