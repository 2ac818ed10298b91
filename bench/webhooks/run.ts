// bench/webhooks: what webhook delivery costs stamping, and how fast deliveries drain, on a real multi-process stack
// (API, worker and sandbox PAC in their own processes, in-memory Temporal dev server, PostgreSQL, Redis) with a
// local receiver in this process.
// Usage: npx tsx bench/webhooks/run.ts [secondsPerRun=20] [connections=8] [outboxEvents=1000]
//   1. After 10 s of unmeasured stamping at full load (warm-up), POST /v1/invoices for `secondsPerRun` with no
//      endpoint, with 3 endpoints subscribed to invoice.stamped, with none, with 3, with none (alternating, so drift
//      on a shared machine weighs on both alike), and the ratio of the means.
//   2. `outboxEvents` events written to the outbox at once for 3 endpoints: deliveries per second until all arrived.
// Databases cfdi_bench_wh_<random> and pac_bench_wh_<random> are created and dropped.
//   BENCH_TEMPORAL=postgres   the Temporal server on PostgreSQL (the production shape; its two databases are created
//                             and dropped too) instead of the in-memory dev server, whose SQLite store is one writer
//   BENCH_RUNTIME=dist        the API, worker and sandbox PAC as the production image runs them: their dist/ builds
//                             (`npm run build` first) on Node 24 with the image's environment (PRODUCTION_ENV)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '@cfdi/config';
import {
  DEFAULT_RETENTION_DAYS,
  ensureNamespace,
  ensureNode24,
  freePort,
  freeTemporalPorts,
  PRODUCTION_ENV,
  startTemporalDevServer,
  startTemporalPostgresServer,
  Supervisor,
  waitForHttp,
} from '@cfdi/devstack';
import { dropDatabase } from '@cfdi/pac-sandbox';
import { emitEvent } from '@cfdi/services';
import { createMerchantAccount, stackEnv } from '@cfdi/testkit';
import { commandsCpuTracker, cpuSecondsByGroup, processGroupOf } from '../process-stats';
import { log, openBenchDatabase, root } from '../bench-stack';

const [seconds, connections, outboxEvents] = [
  Number(process.argv[2] ?? 20),
  Number(process.argv[3] ?? 8),
  Number(process.argv[4] ?? 1000),
];
const onPostgres = process.env.BENCH_TEMPORAL === 'postgres';
const fromDist = process.env.BENCH_RUNTIME === 'dist';
const APPS = [
  ['sandbox PAC', 'apps/pac-sandbox/src/server.ts', 'apps/pac-sandbox/dist/server.js'],
  ['API', 'apps/api/src/server.ts', 'apps/api/dist/server.js'],
  ['worker', 'apps/worker/src/main.ts', 'apps/worker/dist/main.js'],
] as const;
const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};
const invoice = (merchantId: string) =>
  JSON.stringify({
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver: RECEIVER,
    items: [
      { productCode: '43211503', unitCode: 'H87', description: 'Equipo', quantity: 1, unitPrice: 1160 },
    ],
  });
const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

/** Counts deliveries by path and how long each event took from its creation to arriving here. */
async function startReceiver() {
  const lagsMs: number[] = [];
  let received = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received += 1;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string };
      lagsMs.push(Date.now() - Date.parse(event.createdAt));
      response.end('ok');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    get received() {
      return received;
    },
    takeLags: () => lagsMs.splice(0),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function until(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const name = `bench_wh_${randomBytes(4).toString('hex')}`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/cfdi_${name}`;
  const pacDatabaseUrl = `postgres://postgres@127.0.0.1:5432/pac_${name}`;
  const [apiPort, pacPort, temporalPort] = [await freePort(), await freePort(), await freePort()];
  Object.assign(
    process.env,
    stackEnv({
      databaseUrl,
      pacDatabaseUrl,
      apiPort,
      pacPort,
      taskQueue: `${name}-v1`,
      storageDir: `var/${name}-storage`,
    }),
  );
  const config = loadConfig();
  const orm = await openBenchDatabase(databaseUrl);
  const receiver = await startReceiver();
  const supervisor = new Supervisor((child, code) => log(`${child} exited (${code})`));
  // Interrupted: stop the stack (its processes run in their own groups) before leaving.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void supervisor.stopAll().finally(() => process.exit(130)));
  try {
    if (onPostgres) {
      process.env.TEMPORAL_ADDRESS = await startTemporalPostgresServer(supervisor, {
        pg: { host: '127.0.0.1', port: 5432, user: 'postgres' },
        database: `temporal_${name}`,
        visibilityDatabase: `temporal_visibility_${name}`,
        ports: await freeTemporalPorts(),
        logLevel: 'fatal',
        log,
      });
      await ensureNamespace(process.env.TEMPORAL_ADDRESS, config.temporal.namespace, DEFAULT_RETENTION_DAYS);
    } else {
      process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, { port: temporalPort, log });
    }
    const groups: Record<string, number[]> = {
      Temporal: [
        processGroupOf(onPostgres ? '--env postgres --allow-no-auth start' : `--port ${temporalPort}`) ?? -1,
      ],
    };
    const appNode = fromDist ? ensureNode24(log) : process.execPath;
    for (const [role, source, compiled] of APPS) {
      const args = fromDist ? [path.join(root, compiled)] : ['--import', 'tsx', path.join(root, source)];
      groups[role] = [
        supervisor.start(role, appNode, args, {
          cwd: root,
          env: fromDist ? PRODUCTION_ENV : { NODE_OPTIONS: '' },
        }).pid ?? -1,
      ];
    }
    // PostgreSQL serves other users of the machine too: only what the backends of this bench's databases use counts.
    const postgresCpu = commandsCpuTracker([` cfdi_${name} `, ` pac_${name} `]);
    const cpuSecondsByRole = () => ({ ...cpuSecondsByGroup(groups), PostgreSQL: postgresCpu.seconds() });
    const base = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(`${base}/ready`, 60_000);
    await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 60_000);

    const {
      accountId,
      headers: auth,
      merchantId,
    } = await createMerchantAccount(orm, config, base, {
      name: 'bench',
    });
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: auth,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<any>;
    };
    const body = invoice(merchantId);
    for (let i = 0; i < 20; i++) {
      await fetch(`${base}/v1/invoices`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': `warm-${i}-${randomBytes(4).toString('hex')}` },
        body,
      });
    }
    const subscribe = () =>
      Promise.all(
        ['/a', '/b', '/c'].map((p) =>
          call('POST', '/v1/webhook_endpoints', { url: receiver.url(p), enabledEvents: ['invoice.stamped'] }),
        ),
      );
    const unsubscribe = (endpoints: { id: string }[]) =>
      Promise.all(endpoints.map((e) => call('DELETE', `/v1/webhook_endpoints/${e.id}`)));

    const stampRun = async (duration = seconds) => {
      const statuses: Record<number, number> = {};
      const cpuBefore = cpuSecondsByRole();
      const result = await autocannon({
        url: `${base}/v1/invoices`,
        method: 'POST',
        connections,
        duration,
        body,
        headers: auth,
        setupClient: (client) => {
          client.setHeaders({ ...auth, 'idempotency-key': `b-${randomBytes(8).toString('hex')}` });
          client.on('response', (status: number) => {
            statuses[status] = (statuses[status] ?? 0) + 1;
            client.setHeaders({ ...auth, 'idempotency-key': `b-${randomBytes(8).toString('hex')}` });
          });
        },
      });
      const cpuAfter = cpuSecondsByRole();
      const used = Object.fromEntries(
        Object.keys(cpuAfter).map((role) => [
          role,
          cpuAfter[role as keyof typeof cpuAfter]! - cpuBefore[role as keyof typeof cpuBefore]!,
        ]),
      );
      const stamps = (statuses[201] ?? 0) + (statuses[202] ?? 0);
      const cpu = Object.entries(used)
        .map(([role, secondsUsed]) => `${role} ${((secondsUsed * 1000) / stamps).toFixed(0)}`)
        .join(', ');
      const total = ((Object.values(used).reduce((a, b) => a + b, 0) * 1000) / stamps).toFixed(0);
      return { rate: result.requests.average, p95: result.latency.p97_5, statuses, cpu, total };
    };

    // Unmeasured, at full load: the first measured run would otherwise pay the JIT's warm-up, and its slower rate
    // would count against the runs without endpoints (the first one 4-20 % slower than the last before this).
    await stampRun(10);
    const rows: string[] = [];
    const rates: Record<'none' | 'three', number[]> = { none: [], three: [] };
    const totals: Record<'none' | 'three', number[]> = { none: [], three: [] };
    // Alternating, so a steady drift of the machine weighs on both sides alike (both sets centred on the middle run).
    for (const subscribed of [false, true, false, true, false]) {
      const endpoints = subscribed ? await subscribe() : [];
      const before = receiver.received;
      receiver.takeLags();
      const run = await stampRun();
      let lags = '';
      if (subscribed) {
        // Every stamp of the run is delivered to each of the 3 endpoints (202s included: they stamp shortly after).
        const expected = 3 * ((run.statuses[201] ?? 0) + (run.statuses[202] ?? 0));
        await until(`${expected} deliveries`, () => receiver.received - before >= expected, 300_000);
        const taken = receiver.takeLags();
        lags = `${receiver.received - before} deliveries, lag p50 ${percentile(taken, 0.5)} ms / p95 ${percentile(taken, 0.95)} ms`;
        await unsubscribe(endpoints);
      }
      const line = `| ${subscribed ? 3 : 0} | ${run.rate.toFixed(1)} | ${run.p95} | ${JSON.stringify(run.statuses)} | ${run.cpu} | ${run.total} | ${lags} |`;
      log(line);
      rows.push(line);
      rates[subscribed ? 'three' : 'none'].push(run.rate);
      totals[subscribed ? 'three' : 'none'].push(Number(run.total));
    }

    // Drain rate: outboxEvents events at once, each for 3 endpoints.
    const endpoints = await subscribe();
    const before = receiver.received;
    const started = Date.now();
    await orm.em.fork().transactional(async (tx) => {
      for (let i = 0; i < outboxEvents; i++) {
        await emitEvent(tx, { accountId, livemode: false }, 'invoice.stamped', {
          id: `inv_bench_${i}`,
          object: 'invoice',
        });
      }
    });
    const cpuBefore = cpuSecondsByRole();
    await until('the outbox deliveries', () => receiver.received - before >= 3 * outboxEvents, 900_000);
    const elapsed = (Date.now() - started) / 1000;
    const cpuAfter = cpuSecondsByRole();
    const cpuPerDelivery = Object.keys(cpuAfter)
      .map(
        (role) =>
          `${role} ${(((cpuAfter[role as keyof typeof cpuAfter]! - cpuBefore[role as keyof typeof cpuBefore]!) * 1000) / (3 * outboxEvents)).toFixed(1)}`,
      )
      .join(', ');
    const lags = receiver.takeLags();
    await unsubscribe(endpoints);

    process.stdout.write(
      `\nStamping (POST /v1/invoices, 1 item, ${connections} connections, ${seconds} s per run) by endpoints subscribed to invoice.stamped\n`,
    );
    process.stdout.write(
      `| endpoints | stamps/s | p97.5 ms | statuses | CPU ms per stamp by process | CPU ms per stamp, total | deliveries |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    process.stdout.write(
      `\n3 endpoints / none: ${((100 * mean(rates.three)) / mean(rates.none)).toFixed(0)} % of the stamping rate` +
        ` (${mean(rates.three).toFixed(1)} / ${mean(rates.none).toFixed(1)} stamps/s); CPU ms per stamp ${mean(totals.three).toFixed(0)} / ${mean(totals.none).toFixed(0)}\n`,
    );
    process.stdout.write(
      `\nOutbox drain: ${outboxEvents} events × 3 endpoints = ${3 * outboxEvents} deliveries in ${elapsed.toFixed(1)} s = ${((3 * outboxEvents) / elapsed).toFixed(0)} deliveries/s`,
    );
    process.stdout.write(
      ` (lag p50 ${percentile(lags, 0.5)} ms, p95 ${percentile(lags, 0.95)} ms; CPU ms per delivery: ${cpuPerDelivery})\n`,
    );
  } finally {
    await supervisor.stopAll();
    await receiver.close();
    await orm.close();
    await dropDatabase(databaseUrl).catch((error: Error) => log(`drop ${databaseUrl}: ${error.message}`));
    await dropDatabase(pacDatabaseUrl).catch((error: Error) =>
      log(`drop ${pacDatabaseUrl}: ${error.message}`),
    );
    if (onPostgres) {
      for (const database of [`temporal_${name}`, `temporal_visibility_${name}`]) {
        await dropDatabase(`postgres://postgres@127.0.0.1:5432/${database}`).catch((error: Error) =>
          log(`drop ${database}: ${error.message}`),
        );
      }
    }
    fs.rmSync(path.join(root, `var/${name}-storage`), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
