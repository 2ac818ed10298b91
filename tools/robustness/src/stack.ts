import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, defaultSatDir } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';
import { freePort, importCatalogsIfNeeded, startTemporalDevServer, Supervisor, waitForHttp } from '@cfdi/devstack';
import { adjustBalance, createAccount } from '@cfdi/services';

const root = path.resolve(__dirname, '../../..');
const PG = process.env.DRILL_PG_HOST ?? '127.0.0.1:5432';

/** A Supervisor that remembers each child by name, so one can be killed and started again. */
class NamedSupervisor extends Supervisor {
  readonly byName = new Map<string, ChildProcess>();
  override start(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
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
  log: (line: string) => void;
}

export interface Stack {
  base: string;
  pacUrl: string;
  databaseUrl: string;
  pacDatabaseUrl: string;
  orm: Orm;
  env: Record<string, string>;
  /** The API process (its stdio and, with `apiEntry`, its IPC channel). */
  api: ChildProcess;
  killWorker(): void;
  startWorker(): void;
  restartTemporal(): Promise<void>;
  newMerchantAccount(serie?: string): Promise<{ accountId: string; key: string; merchantId: string }>;
  close(options?: { dropDatabases?: boolean }): Promise<void>;
}

const sat = (name: string) => fs.readFileSync(path.join(defaultSatDir(), 'test-certs', name)).toString('base64');
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
 * The platform in processes of its own (API, worker, sandbox PAC, Temporal dev server with its history on disk so a
 * restart keeps it), on free ports, with databases and a task queue named after `name` plus a random suffix, the
 * way bench/stamp/run.ts starts it. Nothing is shared with a developer's stack or another run.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const id = `${options.name}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = `postgres://postgres@${PG}/cfdi_${id}`;
  const pacDatabaseUrl = `postgres://postgres@${PG}/pac_${id}`;
  const [apiPort, pacPort, temporalPort] = [await freePort(), await freePort(), await freePort()];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${id}-`));
  const env: Record<string, string> = {
    NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: databaseUrl, API_PORT: String(apiPort), API_HOST: '127.0.0.1',
    PAC_SANDBOX_PORT: String(pacPort), PAC_SANDBOX_HOST: '127.0.0.1', PAC_SANDBOX_URL: `http://127.0.0.1:${pacPort}`,
    PAC_SANDBOX_DATABASE_URL: pacDatabaseUrl, MASTER_KEY: randomBytes(32).toString('base64'), LIVE_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000', TEMPORAL_TASK_QUEUE: `${id}-v1`, STORAGE_DIR: path.join(dir, 'storage'),
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', ...options.env,
  };
  const config = loadConfig({ ...process.env, ...env });
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  await importCatalogsIfNeeded(orm, options.log);

  // Like a process manager in production, the stack restarts a worker that dies on its own (one that loses Temporal
  // while the dev server restarts exits 1); a worker the drill kills is restarted by the drill.
  let killing = false;
  let closing = false;
  const supervisor = new NamedSupervisor((name, code) => {
    options.log(`${name} exited (${code})`);
    if (name !== 'worker' || closing) return;
    if (killing) killing = false;
    else setTimeout(() => !closing && startWorker(), 2000);
  });
  const temporal = () => startTemporalDevServer(supervisor, { port: temporalPort, dbFile: path.join(dir, 'temporal.db'), logLevel: 'error', log: options.log });
  const startApp = (name: string, entry: string) =>
    supervisor.start(name, process.execPath, ['--import', 'tsx', path.join(root, entry)], { cwd: root, env: { ...process.env, ...env } });
  if (!options.withoutWorker) await temporal();
  startApp('pac', 'apps/pac-sandbox/src/server.ts');
  const api = options.apiEntry
    ? spawn(process.execPath, ['--import', 'tsx', options.apiEntry], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true })
    : startApp('api', 'apps/api/src/server.ts');
  const startWorker = () => void startApp('worker', 'apps/worker/src/main.ts');
  if (!options.withoutWorker) startWorker();
  const base = `http://127.0.0.1:${apiPort}`;
  await waitForHttp(`${base}/health`, 120_000);
  await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 120_000);

  return {
    base, pacUrl: env.PAC_SANDBOX_URL!, databaseUrl, pacDatabaseUrl, orm, env, api,
    killWorker: () => {
      killing = true;
      signal(supervisor.byName.get('worker'), 'SIGKILL');
    },
    startWorker,
    async restartTemporal() {
      // Bounded: a dev server that ignores SIGTERM (or has already gone) must not stall the drill.
      const child = supervisor.byName.get('temporal');
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        signal(child, 'SIGTERM');
        const killLater = setTimeout(() => signal(child, 'SIGKILL'), 15_000);
        await exited;
        clearTimeout(killLater);
      }
      await temporal();
    },
    async newMerchantAccount(serie = 'A') {
      const account = await createAccount(orm.em.fork(), config, { name: id });
      await adjustBalance(orm.em.fork(), { accountId: account.accountId, livemode: false }, { type: 'recharge', deltaCentavos: 100_000_000, note: 'drill' });
      const headers = { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' };
      const merchant = await (await fetch(`${base}/v1/merchants`, {
        method: 'POST', headers, body: JSON.stringify({ rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501', serie }),
      })).json() as { id: string };
      const csd = await fetch(`${base}/v1/merchants/${merchant.id}/csd`, {
        method: 'POST', headers, body: JSON.stringify({ cer: sat('EKU9003173C9-csd.cer'), key: sat('EKU9003173C9-csd.key'), password: '12345678a' }),
      });
      if (csd.status !== 201) throw new Error(`CSD upload failed: ${csd.status} ${await csd.text()}`);
      return { accountId: account.accountId, key: account.testKey, merchantId: merchant.id };
    },
    async close({ dropDatabases = true } = {}) {
      closing = true;
      signal(api, 'SIGKILL');
      await supervisor.stopAll(5000);
      await orm.close();
      if (dropDatabases) {
        const admin = await createOrm(`postgres://postgres@${PG}/postgres`);
        try {
          for (const url of [databaseUrl, pacDatabaseUrl]) await admin.em.fork().execute(`drop database if exists ${url.split('/').pop()} with (force)`);
        } finally {
          await admin.close();
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
