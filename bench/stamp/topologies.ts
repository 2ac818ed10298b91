// bench/stamp/topologies: the stamping bench across deployments (issue #20): the same POST /v1/invoices runs on a
// stack per topology (Temporal dev server or Temporal on PostgreSQL, 1 or more workers), one after the other in one
// invocation, with CPU per stamp of each process. bench/stamp/run.ts is the per-stamp bench with its reference modes.
// Usage: npx tsx bench/stamp/topologies.ts [secondsPerRun=20]
//   BENCH_CASES=1x8,50x8   only these items×connections runs (default: 1 and 50 items at 1, 8 and 32 connections)
//   BENCH_TOPOLOGIES=dev:1,postgres:1,postgres:2   Temporal (in-memory dev server, or the server on PostgreSQL) and
//                          worker processes of each stack, benched one after the other in this run (default dev:1)
//   BENCH_DB_PREFIX=topo_  prefix of the bench's databases (cfdi_bench, pac_sandbox_bench, bench_temporal…)
//   BENCH_PG_HOST=%2Fvar%2Frun%2Fpostgresql   PostgreSQL over its Unix socket instead of 127.0.0.1:5432 (TCP)
//   BENCH_PROFILE=<dir>    V8 CPU profiles of the API, worker and sandbox into <dir> (written when they stop)
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@cfdi/config';
import { createMerchantAccount, stackEnv } from '@cfdi/testkit';
import {
  DEFAULT_RETENTION_DAYS,
  ensureNamespace,
  freePort,
  freeTemporalPorts,
  startTemporalDevServer,
  startTemporalPostgresServer,
  Supervisor,
  waitForHttp,
} from '@cfdi/devstack';
import { cpuPerStamp, cpuSecondsByRole } from './process-cpu';
import { body, loadInvoices, percentile } from './invoice';
import { log, openBenchDatabase, root } from '../bench-stack';

const seconds = Number(process.argv[2] ?? 20);
const cases = (process.env.BENCH_CASES ?? '1x1,1x8,1x32,50x1,50x8,50x32')
  .split(',')
  .map((c) => c.split('x').map(Number) as [number, number]);
const topologies = (process.env.BENCH_TOPOLOGIES ?? 'dev:1').split(',').map((t) => {
  const [temporal, workers] = t.split(':');
  if (temporal !== 'dev' && temporal !== 'postgres')
    throw new Error(`BENCH_TOPOLOGIES: ${t} is not dev:<workers> or postgres:<workers>`);
  return { temporal, workers: Number(workers ?? 1) } as const;
});
const pgHost = process.env.BENCH_PG_HOST ?? '127.0.0.1:5432';
const prefix = process.env.BENCH_DB_PREFIX ?? '';
const databases = {
  cfdi: `${prefix}cfdi_bench`,
  pac: `${prefix}pac_sandbox_bench`,
  temporal: `${prefix}bench_temporal`,
  visibility: `${prefix}bench_temporal_visibility`,
};

async function main(): Promise<void> {
  const results: string[] = [];
  for (const topology of topologies) results.push(...(await benchStack(topology)));
  process.stdout.write(
    `\nPOST /v1/invoices (${seconds} s per run; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end)\n| Temporal | workers | items | connections | stamps/s | p50 ms | p95 ms | p99 ms | statuses | CPU ms per stamp: ${Object.keys(cpuSecondsByRole()).join(' | ')} | total |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n${results.join('\n')}\n`,
  );
}

/** One stack (Temporal kind, worker count), every case against it. */
async function benchStack(topology: { temporal: 'dev' | 'postgres'; workers: number }): Promise<string[]> {
  const databaseUrl = `postgres://postgres@${pgHost}/${databases.cfdi}`;
  const [apiPort, pacPort] = [await freePort(), await freePort()];
  const env = stackEnv({
    databaseUrl,
    pacDatabaseUrl: `postgres://postgres@${pgHost}/${databases.pac}`,
    apiPort,
    pacPort,
    taskQueue: 'bench-v1',
    storageDir: 'var/bench-storage',
  });
  Object.assign(process.env, env);
  const config = loadConfig();
  const orm = await openBenchDatabase(databaseUrl);

  const supervisor = new Supervisor((name, code) => log(`${name} exited (${code})`));
  try {
    if (topology.temporal === 'postgres') {
      // A fresh server each time: the databases are dropped first (the history of an earlier run is not measured).
      await orm.em.fork().execute(`drop database if exists ${databases.temporal} with (force)`);
      await orm.em.fork().execute(`drop database if exists ${databases.visibility} with (force)`);
      const [host, port] = pgHost.split(':');
      process.env.TEMPORAL_ADDRESS = await startTemporalPostgresServer(supervisor, {
        pg: { host: host!, port: Number(port ?? 5432), user: 'postgres' },
        database: databases.temporal,
        visibilityDatabase: databases.visibility,
        ports: await freeTemporalPorts(),
        logLevel: 'fatal',
        log,
      });
    } else {
      process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, {
        port: await freePort(),
        log,
      });
    }
    await ensureNamespace(process.env.TEMPORAL_ADDRESS, config.temporal.namespace, DEFAULT_RETENTION_DAYS);
    const profile = process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
      : [];
    const startApp = (name: string, entry: string) =>
      supervisor.start(name, process.execPath, [...profile, '--import', 'tsx', path.join(root, entry)], {
        cwd: root,
      });
    startApp('pac', 'apps/pac-sandbox/src/server.ts');
    startApp('api', 'apps/api/src/server.ts');
    for (let w = 1; w <= topology.workers; w++) startApp(`worker-${w}`, 'apps/worker/src/main.ts');
    const base = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(`${base}/ready`, 60_000);
    await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 60_000);

    const { headers: auth, merchantId } = await createMerchantAccount(orm, config, base, { name: 'bench' });

    // Warm-up: bundles compiled, connections open, caches filled.
    for (let i = 0; i < 20; i++) {
      await fetch(`${base}/v1/invoices`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': `warm-${i}-${randomBytes(4).toString('hex')}` },
        body: JSON.stringify(body(merchantId, 1)),
      });
    }

    const results: string[] = [];
    const ourDatabases = Object.values(databases);
    for (const [items, connections] of cases) {
      const payload = JSON.stringify(body(merchantId, items));
      const cpuBefore = cpuSecondsByRole(ourDatabases);
      const { rate, statuses, latencies } = await loadInvoices(base, auth, payload, { connections, seconds });
      const cpu = cpuPerStamp(cpuBefore, cpuSecondsByRole(ourDatabases), latencies.length);
      const at = (q: number) => percentile(latencies, q).toFixed(0);
      const cpuColumns = Object.values(cpu)
        .map((ms) => ms.toFixed(1))
        .join(' | ');
      const total = Object.values(cpu)
        .reduce((a, b) => a + b, 0)
        .toFixed(0);
      const line = `| ${topology.temporal === 'dev' ? 'dev server' : 'PostgreSQL'} | ${topology.workers} | ${items} | ${connections} | ${rate.toFixed(1)} | ${at(0.5)} | ${at(0.95)} | ${at(0.99)} | ${JSON.stringify(statuses)} | ${cpuColumns} | ${total} |`;
      log(line);
      results.push(line);
    }

    return results;
  } finally {
    await supervisor.stopAll();
    await orm.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
