import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Client } from 'pg';
import { Connection } from '@temporalio/client';
import type { Config } from '@cfdi/config';
import { Redis } from 'ioredis';
import { createFileStorage } from '@cfdi/storage';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  /** What to do about it, when not ok. */
  fix?: string;
}

export async function checkPostgres(config: Pick<Config, 'databaseUrl'>): Promise<CheckResult> {
  const url = new URL(config.databaseUrl);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query('show server_version');
    return { name: 'PostgreSQL', ok: true, detail: `${url.host} (server ${rows[0].server_version})` };
  } catch (error) {
    return {
      name: 'PostgreSQL',
      ok: false,
      detail: `${url.host}: ${(error as Error).message}`,
      fix: `Start PostgreSQL (e.g. \`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\`) or set DATABASE_URL to a reachable server.`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function checkRedis(config: Pick<Config, 'redisUrl'>): Promise<CheckResult> {
  // One attempt, no reconnecting: a check answers at once whether Redis is there.
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let connectionError: Error | undefined;
  redis.on('error', (error: Error) => (connectionError ??= error));
  try {
    await redis.connect();
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? '?';
    return {
      name: 'Redis',
      ok: true,
      detail: `${redis.options.host}:${redis.options.port} (server ${version})`,
    };
  } catch (error) {
    return {
      name: 'Redis',
      ok: false,
      detail: `${config.redisUrl}: ${(connectionError ?? (error as Error)).message}`,
      fix: 'Start Redis (e.g. `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`) or set REDIS_URL.',
    };
  } finally {
    redis.disconnect();
  }
}

export async function checkTemporal(config: Pick<Config, 'temporal'>): Promise<CheckResult> {
  try {
    const connection = await Connection.connect({ address: config.temporal.address, connectTimeout: 3000 });
    try {
      await connection.healthService.check({});
    } finally {
      await connection.close();
    }
    return { name: 'Temporal', ok: true, detail: config.temporal.address };
  } catch (error) {
    return {
      name: 'Temporal',
      ok: false,
      detail: `${config.temporal.address}: ${(error as Error).message}`,
      fix: 'Run `npm run up` (it starts the Temporal dev server) or set TEMPORAL_ADDRESS to a running Temporal frontend.',
    };
  }
}

export async function checkHttp(name: string, url: string, fix: string): Promise<CheckResult> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return {
      name,
      ok: response.ok,
      detail: `${url} → ${response.status}`,
      fix: response.ok ? undefined : fix,
    };
  } catch (error) {
    return { name, ok: false, detail: `${url}: ${(error as Error).message}`, fix };
  }
}

/** Command-line tools the SAT checks and document tests use. */
export function checkTool(command: string, debianPackage: string): CheckResult {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'pipe' });
    return { name: command, ok: true, detail: 'installed' };
  } catch {
    return { name: command, ok: false, detail: 'not found', fix: `apt-get install -y ${debianPackage}` };
  }
}

function checkDirectory(name: string, dir: string): CheckResult {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return { name, ok: true, detail: dir };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `${dir}: ${(error as Error).message}`,
      fix: 'Point STORAGE_DIR at a writable directory.',
    };
  }
}

/** The local folder is writable, or the bucket answers a read with the configured credentials. */
export async function checkStorage(config: Pick<Config, 'storage'>): Promise<CheckResult> {
  const { storage } = config;
  if (storage.driver === 'local') return checkDirectory('storage', storage.dir);
  const bucket = `s3://${storage.bucket}${storage.endpoint ? ` at ${storage.endpoint}` : ` (${storage.region})`}`;
  try {
    // A key nothing writes: an answer, even "not found", proves the bucket exists and the credentials may read it.
    await createFileStorage(config).get('doctor-probe');
    return { name: 'storage', ok: true, detail: bucket };
  } catch (error) {
    return {
      name: 'storage',
      ok: false,
      detail: (error as Error).message,
      fix: 'Check S3_ENDPOINT, S3_BUCKET (the bucket must exist), S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.',
    };
  }
}

export function formatCheck(result: CheckResult): string {
  const line = `${result.ok ? '✓' : '✗'} ${result.name.padEnd(12)} ${result.detail}`;
  return result.ok || !result.fix ? line : `${line}\n    → ${result.fix}`;
}
