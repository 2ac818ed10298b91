/**
 * CPU cost of the sandbox PAC per stamp, as it runs in the end-to-end stack: server.ts in its own
 * process (LOG_LEVEL=warn), stamps sent by the Finkok adapter at 8 connections. CPU is the server
 * process's utime + stime from /proc over the measured batch, so the client's work is not counted.
 * Run from the repo root: npx tsx bench/pac/cpu-bench.ts [stamps=1000] [runs=3]
 * PAC_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/pacprof" profiles the server (written on exit);
 * PAC_BENCH_SERVER=<path to a server.ts> measures another copy of the sandbox (before/after comparisons).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FinkokPac } from '../../packages/pac/src';
import { dropDatabase } from '../../apps/pac-sandbox/src';
import { benchPacClient, sealedInvoices } from './fixtures';

const ROOT = path.resolve(__dirname, '../..');
const STAMPS = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 8;
const CLK_TCK = 100;

/** Sealed a minute ago: the server runs on the real clock (72-hour window). */
const sealedDocs = (from: number, count: number) =>
  sealedInvoices({ from, count, serie: 'CPU', sealedAt: new Date(Date.now() - 60_000) });

/** utime + stime of a process, in ms (/proc/<pid>/stat fields 14 and 15, after the command name). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function batch(pac: FinkokPac, docs: string[]): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < docs.length) {
        const xml = docs[next++]!;
        const start = process.hrtime.bigint();
        const r = await pac.stamp(xml);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (r.outcome !== 'stamped') throw new Error(JSON.stringify(r));
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const port = 3900 + Math.floor(Math.random() * 1000);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/pac_sandbox_cpu_${randomBytes(4).toString('hex')}`;
  const nodeArgs = (process.env.PAC_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--import',
      'tsx',
      path.resolve(process.env.PAC_BENCH_SERVER ?? path.join(ROOT, 'apps/pac-sandbox/src/server.ts')),
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        PAC_SANDBOX_HOST: '127.0.0.1',
        PAC_SANDBOX_PORT: String(port),
        PAC_SANDBOX_DATABASE_URL: databaseUrl,
      },
    },
  );
  const exited = new Promise((r) => server.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  const pac = benchPacClient(base);
  try {
    await waitForHealth(`${base}/health`);
    await pac.registerCsd({ rfc: 'EKU9003173C9' });
    let folio = 1;
    await batch(pac, sealedDocs(folio, 200)); // warm-up: JIT, pool connections
    folio += 200;
    for (let run = 1; run <= RUNS; run++) {
      const docs = sealedDocs(folio, STAMPS);
      folio += STAMPS;
      const cpuBefore = cpuMs(server.pid!);
      const start = Date.now();
      const latencies = await batch(pac, docs);
      const cpu = cpuMs(server.pid!) - cpuBefore;
      const p = (q: number) => latencies[Math.floor(q * latencies.length)]!.toFixed(1);
      console.log(
        `run ${run}: ${STAMPS} stamps at ${CONCURRENCY} connections: ${(cpu / STAMPS).toFixed(2)} ms CPU/stamp, ` +
          `${((STAMPS / (Date.now() - start)) * 1000).toFixed(0)} stamps/s, p50 ${p(0.5)} ms, p95 ${p(0.95)} ms`,
      );
    }
  } finally {
    pac.close();
    server.kill('SIGTERM');
    await exited;
    await dropDatabase(databaseUrl);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
