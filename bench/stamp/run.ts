// bench/stamp: POST /v1/invoices throughput, latency and CPU per stamp on a real multi-process stack (API, worker and
// sandbox PAC in their own processes, in-memory Temporal dev server, PostgreSQL, Redis), measured side by side with
// two reference modes in the same invocation:
//   real    the platform as shipped: the API stamps itself what ends with its recording (these invoices up to
//           FILES_INLINE_MAX_ITEMS concepts), and hands the rest (the 500-item case) to the stamp workflow on the
//           worker through update-with-start;
//   baseline  the same from an earlier commit (BENCH_BASELINE=<commit>): before and after under the same load;
//   inline  the same API request, validation, transaction, sealing, sandbox PAC call and recording in one process,
//           without Temporal (bench/stamp/inline-server.ts, bench-only): real − inline is what Temporal costs a stamp;
//   empty   update-with-start of a workflow that returns at once (bench/stamp/empty-workflow.ts), from this process:
//           Temporal's own floor per stamp.
// Then the first download of a fresh stamp's PDF and ZIP, and the time split of one stamp's parts.
// Usage: npx tsx bench/stamp/run.ts [secondsPerRun=20]
//   BENCH_CASES=1x1,1x8,500x1   items×connections runs (this is the default)
//   BENCH_MODES=real,inline,empty   which modes run for each case (default all; empty runs for 1-item cases only)
//   BENCH_DB=cfdi_bench          database name (the sandbox PAC's is <name>_pac), so parallel checkouts do not collide
//   BENCH_PORT_BASE=3500         API, sandbox PAC, Temporal and inline API on consecutive ports (default: free ports)
//   BENCH_PROFILE=<dir>          V8 CPU profiles of the API, worker, inline API and sandbox into <dir>
//   BENCH_BASELINE=<commit>      also run that commit's API and worker (exported to a temporary directory, this
//                                checkout's node_modules linked) before each real run; needs the same schema
//   BENCH_SQL_LOG=<file>         the text of every statement the API and the worker send (prefixed by role)
//   BENCH_RUNTIME=dist           run the API, worker and sandbox PAC as the production image does: their dist/ builds
//                                (`npm run build` first) on Node 24 with the image's environment (PRODUCTION_ENV),
//                                instead of from sources through tsx on the Node running this script
//   BENCH_APP_NODE_OPTIONS=…     the apps' NODE_OPTIONS instead (e.g. '' for V8's defaults), not this script's
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Client,
  Connection,
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { defaultSatDir, loadConfig } from '@cfdi/config';
import { SANDBOX_CREDENTIALS } from '@cfdi/services';
import { createMerchantAccount, stackEnv } from '@cfdi/testkit';
import {
  ensureNode24,
  freePort,
  PRODUCTION_ENV,
  startTemporalDevServer,
  Supervisor,
  waitForHttp,
} from '@cfdi/devstack';
import { buildInvoiceXml, openPrivateKey, renderPdf, buildZip, cfdiZipEntries, sealXml } from '@cfdi/cfdi';
import { FinkokPac } from '@cfdi/pac';
import { stampOutcomeUpdate, stampWorkflowId } from '@cfdi/temporal-contract/client';
import { commandsCpuTracker, cpuSecondsByGroup, processGroupOf, rssMbOfGroups } from '../process-stats';
import { payloadBytes } from './payload-bytes';
import { baselineTree } from './baseline-tree';
import { body, loadInvoices, percentile, RECEIVER } from './invoice';
import { log, openBenchDatabase, root } from '../bench-stack';

const seconds = Number(process.argv[2] ?? 20);
const median = (xs: number[]) => percentile(xs, 0.5);
const cases = (process.env.BENCH_CASES ?? '1x1,1x8,500x1')
  .split(',')
  .map((c) => c.split('x').map(Number) as [number, number]);
const baselineCommit = process.env.BENCH_BASELINE;
const modes = new Set([
  ...(process.env.BENCH_MODES ?? 'real,inline,empty').split(','),
  ...(baselineCommit ? ['baseline'] : []),
]);
const MODE_ORDER = ['baseline', 'real', 'inline', 'empty'];
const sat = (name: string) => fs.readFileSync(path.join(defaultSatDir(), 'test-certs', name));
const EMPTY_QUEUE = 'bench-empty';
const SQL_COUNT_PRELOAD = path.join(__dirname, 'sql-count-preload.cjs');
const fromDist = process.env.BENCH_RUNTIME === 'dist';
const DIST_ENTRIES: Record<string, string> = {
  'apps/api/src/server.ts': 'apps/api/dist/server.js',
  'apps/worker/src/main.ts': 'apps/worker/dist/main.js',
  'apps/pac-sandbox/src/server.ts': 'apps/pac-sandbox/dist/server.js',
};

/** Which processes' CPU counts as the platform's in each mode (the others are idle or not involved). */
const PLATFORM_ROLES: Record<string, string[]> = {
  baseline: ['baseline API', 'baseline worker'],
  real: ['API', 'worker'],
  inline: ['inline API'],
  empty: ['empty worker'],
};
const SHOWN_ROLES = [
  'API',
  'worker',
  'baseline API',
  'baseline worker',
  'inline API',
  'empty worker',
  'sandbox PAC',
  'Temporal',
  'PostgreSQL',
];
const ROLES_BY_MODE: Record<string, string[]> = {
  baseline: ['baseline API', 'baseline worker', 'sandbox PAC', 'Temporal', 'PostgreSQL'],
  real: ['API', 'worker', 'sandbox PAC', 'Temporal', 'PostgreSQL'],
  inline: ['inline API', 'sandbox PAC', 'PostgreSQL'],
  empty: ['empty worker', 'Temporal'],
};

interface RunResult {
  rate: number;
  latencies: number[];
  statuses: Record<number, number>;
  cpuMs: Record<string, number>;
  sql: string;
}

async function main(): Promise<void> {
  const database = process.env.BENCH_DB ?? 'cfdi_bench';
  const portBase = process.env.BENCH_PORT_BASE ? Number(process.env.BENCH_PORT_BASE) : null;
  const port = async (offset: number) => (portBase === null ? freePort() : portBase + offset);
  const [apiPort, pacPort, temporalPort, inlinePort, baselinePort] = [
    await port(0),
    await port(1),
    await port(2),
    await port(3),
    await port(4),
  ];
  // Each platform process counts its own statements (sql-count-preload.cjs) into a file of this directory.
  const countDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sql-'));
  const env = {
    ...stackEnv({
      databaseUrl: `postgres://postgres@127.0.0.1:5432/${database}`,
      pacDatabaseUrl: `postgres://postgres@127.0.0.1:5432/${database}_pac`,
      apiPort,
      pacPort,
      taskQueue: 'bench-v1',
      storageDir: `var/${database}-storage`,
    }),
    INLINE_PORT: String(inlinePort),
    EMPTY_TASK_QUEUE: EMPTY_QUEUE,
  };
  Object.assign(process.env, env);
  const config = loadConfig();
  const orm = await openBenchDatabase(config.databaseUrl);

  const supervisor = new Supervisor((name, code) => log(`${name} exited (${code})`));
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void supervisor.stopAll().finally(() => process.exit(130)));
  let temporalClient: Client | undefined;
  try {
    process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, { port: temporalPort, log });
    const profile = process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`]
      : [];
    const groups: Record<string, number[]> = { Temporal: [processGroupOf(`--port ${temporalPort}`) ?? -1] };
    const statementsOf = async (roles: string[]): Promise<number[]> => {
      for (const role of roles) process.kill(groups[role]![0]!, 'SIGWINCH');
      await new Promise((resolve) => setTimeout(resolve, 200));
      return roles.map((role) => Number(fs.readFileSync(path.join(countDir, `${role}.count`), 'utf8')));
    };
    const appNode = fromDist ? ensureNode24(log) : process.execPath;
    const productionEnv = fromDist ? PRODUCTION_ENV : { NODE_OPTIONS: '' };
    const appEnv = {
      ...productionEnv,
      NODE_OPTIONS: process.env.BENCH_APP_NODE_OPTIONS ?? productionEnv.NODE_OPTIONS,
    };
    const startApp = (role: string, entry: string, extraEnv: NodeJS.ProcessEnv = {}, from = root) => {
      // From dist/ (BENCH_RUNTIME=dist, after `npm run build`) the apps run as the production image runs them.
      const compiled = fromDist && from === root ? DIST_ENTRIES[entry] : undefined;
      const args = compiled ? [path.join(from, compiled)] : ['--import', 'tsx', path.join(from, entry)];
      const counting = {
        BENCH_ROLE: role,
        BENCH_SQL_COUNT_FILE: path.join(countDir, `${role}.count`),
        ...(process.env.BENCH_SQL_LOG ? { BENCH_SQL_LOG: path.resolve(process.env.BENCH_SQL_LOG) } : {}),
      };
      groups[role] = [
        supervisor.start(role, appNode, [...profile, '--require', SQL_COUNT_PRELOAD, ...args], {
          cwd: from,
          env: { ...appEnv, ...counting, ...extraEnv },
        }).pid ?? -1,
      ];
    };
    startApp('sandbox PAC', 'apps/pac-sandbox/src/server.ts');
    startApp('API', 'apps/api/src/server.ts');
    startApp('worker', 'apps/worker/src/main.ts');
    if (modes.has('inline')) startApp('inline API', 'bench/stamp/inline-server.ts');
    if (modes.has('empty')) startApp('empty worker', 'bench/stamp/empty-worker.ts');
    if (baselineCommit) {
      const tree = baselineTree(baselineCommit);
      const baselineEnv = { API_PORT: String(baselinePort), TEMPORAL_TASK_QUEUE: 'bench-baseline' };
      startApp('baseline API', 'apps/api/src/server.ts', baselineEnv, tree);
      startApp('baseline worker', 'apps/worker/src/main.ts', baselineEnv, tree);
    }
    // PostgreSQL serves other users of the machine too: only the backends of this bench's databases count.
    const postgresCpu = commandsCpuTracker([` ${database} `, ` ${database}_pac `]);
    const cpuSecondsByRole = (): Record<string, number> => ({
      ...cpuSecondsByGroup(groups),
      PostgreSQL: postgresCpu.seconds(),
    });
    const base = `http://127.0.0.1:${apiPort}`;
    const inlineBase = `http://127.0.0.1:${inlinePort}`;
    const baselineBase = `http://127.0.0.1:${baselinePort}`;
    if (baselineCommit) await waitForHttp(`${baselineBase}/ready`, 60_000);
    await waitForHttp(`${base}/ready`, 60_000);
    await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 60_000);
    if (modes.has('inline')) await waitForHttp(`${inlineBase}/ready`, 60_000);

    // Peak resident memory of the platform's processes: overall, and each run's own, so a peak can be traced to its case.
    const peakRss: Record<string, number> = {};
    let runPeakRss: Record<string, number> = {};
    const runPeaks: string[] = [];
    const rssTimer = setInterval(() => {
      for (const role of ['API', 'worker', 'inline API', 'baseline API', 'baseline worker']) {
        if (!groups[role]) continue;
        const mb = rssMbOfGroups(groups[role]!);
        peakRss[role] = Math.max(peakRss[role] ?? 0, mb);
        runPeakRss[role] = Math.max(runPeakRss[role] ?? 0, mb);
      }
    }, 1000);

    const { headers: auth, merchantId } = await createMerchantAccount(orm, config, base, { name: 'bench' });
    const stampOnce = async (url: string, items: number) => {
      const response = await fetch(`${url}/v1/invoices`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': `one-${randomBytes(8).toString('hex')}` },
        body: JSON.stringify(body(merchantId, items)),
      });
      return {
        status: response.status,
        invoice: (await response.json()) as {
          files: { status: string; xmlUrl?: string; pdfUrl?: string; zipUrl?: string };
        },
      };
    };

    // Warm-up: bundles compiled, connections open, caches filled.
    for (let i = 0; i < 20; i++) {
      if (modes.has('real')) await stampOnce(base, 1);
      if (modes.has('inline')) await stampOnce(inlineBase, 1);
      if (baselineCommit) await stampOnce(baselineBase, 1);
    }
    if (modes.has('empty')) {
      temporalClient = new Client({
        connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS }),
        namespace: config.temporal.namespace,
      });
      for (let i = 0; i < 20; i++) await emptyStamp(temporalClient);
    }

    const measure = async (
      mode: string,
      run: () => Promise<{ rate: number; latencies: number[]; statuses: Record<number, number> }>,
    ): Promise<RunResult> => {
      const counted = PLATFORM_ROLES[mode]!.filter((role) => role !== 'empty worker');
      const sqlBefore = await statementsOf(counted);
      const cpuBefore = cpuSecondsByRole();
      const result = await run();
      const cpuAfter = cpuSecondsByRole();
      const stamps = result.latencies.length;
      const cpuMs = Object.fromEntries(
        Object.keys(cpuAfter).map((role) => [
          role,
          ((cpuAfter[role]! - (cpuBefore[role] ?? 0)) * 1000) / stamps,
        ]),
      );
      const sqlAfter = await statementsOf(counted);
      const perStamp = counted.map((_role, i) => (sqlAfter[i]! - sqlBefore[i]!) / stamps);
      const sql = !perStamp.length
        ? '–'
        : perStamp.length === 1
          ? perStamp[0]!.toFixed(1)
          : `${perStamp.reduce((a, b) => a + b, 0).toFixed(1)} (${perStamp.map((n) => n.toFixed(1)).join(' + ')})`;
      return { ...result, cpuMs, sql };
    };
    const httpRun = (url: string, items: number, connections: number) => async () => {
      const payload = JSON.stringify(body(merchantId, items));
      const { rate, latencies, statuses } = await loadInvoices(url, auth, payload, { connections, seconds });
      return { rate, latencies, statuses };
    };
    const emptyRun = (connections: number) => async () => {
      const latencies: number[] = [];
      const until = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (Date.now() < until) {
            const started = performance.now();
            await emptyStamp(temporalClient!);
            latencies.push(performance.now() - started);
          }
        }),
      );
      return { rate: latencies.length / seconds, latencies, statuses: { 200: latencies.length } };
    };

    const rows: string[] = [];
    const overheads: string[] = [];
    for (const [items, connections] of cases) {
      const byMode: Record<string, RunResult> = {};
      for (const mode of MODE_ORDER) {
        if (!modes.has(mode) || (mode === 'empty' && items !== 1)) continue;
        const urls: Record<string, string> = { baseline: baselineBase, real: base, inline: inlineBase };
        const run = mode === 'empty' ? emptyRun(connections) : httpRun(urls[mode]!, items, connections);
        runPeakRss = {};
        const result = (byMode[mode] = await measure(mode, run));
        runPeaks.push(
          `${mode} ${items}x${connections}: ${Object.entries(runPeakRss)
            .map(([role, mb]) => `${role} ${mb.toFixed(0)}`)
            .join(', ')}`,
        );
        const at = (q: number) => percentile(result.latencies, q).toFixed(0);
        const shown = SHOWN_ROLES.map((role) =>
          ROLES_BY_MODE[mode]!.includes(role) ? result.cpuMs[role]!.toFixed(1) : '–',
        ).join(' | ');
        const platform = PLATFORM_ROLES[mode]!.reduce((sum, role) => sum + result.cpuMs[role]!, 0).toFixed(1);
        const total = ROLES_BY_MODE[mode]!.reduce((sum, role) => sum + result.cpuMs[role]!, 0).toFixed(0);
        const line = `| ${mode} | ${items} | ${connections} | ${result.rate.toFixed(1)} | ${at(0.5)} | ${at(0.95)} | ${at(0.99)} | ${JSON.stringify(result.statuses)} | ${shown} | ${platform} | ${total} | ${result.sql} | ${loadAverage()} |`;
        log(line);
        rows.push(line);
      }
      if (byMode.real && byMode.inline) {
        const p50 = (r: RunResult) => percentile(r.latencies, 0.5);
        const platform = (r: RunResult, mode: string) =>
          PLATFORM_ROLES[mode]!.reduce((sum, role) => sum + r.cpuMs[role]!, 0);
        overheads.push(
          `| ${items} | ${connections} | ${(p50(byMode.real) - p50(byMode.inline)).toFixed(0)} | ${(platform(byMode.real, 'real') - platform(byMode.inline, 'inline')).toFixed(1)} | ${(byMode.real.cpuMs.Temporal! + platform(byMode.real, 'real') - platform(byMode.inline, 'inline')).toFixed(1)} | ${byMode.empty ? p50(byMode.empty).toFixed(0) : '–'} |`,
        );
      }
    }
    clearInterval(rssTimer);

    // First download of a fresh stamp's files (rendered on that request), then the same URL again (stored).
    const downloads = {
      xml: [] as number[],
      pdf: [] as number[],
      pdfAgain: [] as number[],
      zip: [] as number[],
    };
    for (let i = 0; i < (modes.has('real') ? 10 : 0); i++) {
      const { invoice } = await stampOnce(base, 1);
      for (const [name, url] of [
        ['xml', invoice.files.xmlUrl],
        ['pdf', invoice.files.pdfUrl],
        ['pdfAgain', invoice.files.pdfUrl],
        ['zip', invoice.files.zipUrl],
      ] as const) {
        const started = performance.now();
        const response = await fetch(url!);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`download ${name}: ${response.status}`);
        downloads[name].push(performance.now() - started);
      }
    }

    // What crosses Temporal for one stamp of each size: the payload bytes of each event of its workflow's history.
    const payloads: string[] = [];
    if (modes.has('real')) {
      const client = new Client({
        connection: await Connection.connect({ address: process.env.TEMPORAL_ADDRESS }),
        namespace: config.temporal.namespace,
      });
      for (const items of [...new Set(cases.map(([n]) => n))]) {
        const { invoice } = await stampOnce(base, items);
        const handle = client.workflow.getHandle(stampWorkflowId((invoice as unknown as { id: string }).id));
        const ran = await handle.result().then(
          () => true,
          (error: Error) => {
            if (error instanceof WorkflowNotFoundError) return false;
            throw error;
          },
        );
        if (!ran) {
          payloads.push(`| ${items} | 0 | 0 | stamped by the API itself: no workflow |`);
          continue;
        }
        const events = (await handle.fetchHistory()).events ?? [];
        const sizes = events.map((event) => {
          const [key, attributes] =
            Object.entries(event).find(([k, v]) => k.endsWith('EventAttributes') && v) ?? [];
          return [String(key).replace('EventAttributes', ''), payloadBytes(attributes)] as const;
        });
        const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
        payloads.push(
          `| ${items} | ${events.length} | ${total} | ${sizes
            .filter(([, bytes]) => bytes > 0)
            .map(([name, bytes]) => `${name} ${bytes}`)
            .join(', ')} |`,
        );
      }
      await client.connection.close();
    }

    // Time split of one stamp, each part measured on its own (median of 20).
    const csdKey = {
      certificateDer: sat('EKU9003173C9-csd.cer'),
      privateKey: openPrivateKey(sat('EKU9003173C9-csd.key'), '12345678a'),
    };
    const pac = new FinkokPac({ url: `http://127.0.0.1:${pacPort}`, ...SANDBOX_CREDENTIALS });
    const issuer = {
      rfc: 'EKU9003173C9',
      legalName: 'ESCUELA KEMPER URGATE',
      regimenFiscal: '601',
      zip: '42501',
    };
    const split: string[] = [];
    for (const items of [...new Set(cases.map(([n]) => n))]) {
      const times = { seal: [] as number[], pac: [] as number[], files: [] as number[] };
      for (let i = 0; i < 20; i++) {
        let t = performance.now();
        const input = {
          issuer,
          receiver: RECEIVER,
          formaPago: '03',
          usoCfdi: 'G03',
          items: body('', items).items,
          serie: 'BENCH',
          folio: i + 1 + items * 1000 + Math.floor(Math.random() * 1e6),
        };
        const sealed = sealXml(buildInvoiceXml(input, { now: new Date() }).xml, csdKey);
        times.seal.push(performance.now() - t);
        t = performance.now();
        const stamped = await pac.stamp(sealed.xml);
        times.pac.push(performance.now() - t);
        if (stamped.outcome !== 'stamped') throw new Error(`bench stamp: ${stamped.outcome}`);
        t = performance.now();
        const pdf = await renderPdf(stamped.xml);
        await buildZip(cfdiZipEntries(stamped.uuid, stamped.xml, pdf));
        times.files.push(performance.now() - t);
      }
      split.push(
        `| ${items} | ${median(times.seal).toFixed(1)} | ${median(times.pac).toFixed(1)} | ${median(times.files).toFixed(1)} |`,
      );
    }
    pac.close();

    process.stdout.write(
      `\nPOST /v1/invoices (${seconds} s per run; CPU ms per stamp; platform = API + worker, or the inline API alone; SQL = statements per stamp sent by the platform: API + worker)\n`,
    );
    process.stdout.write(
      `| mode | items | connections | stamps/s | p50 ms | p95 ms | p99 ms | statuses | ${SHOWN_ROLES.join(' | ')} | platform | total | SQL | load average |\n`,
    );
    process.stdout.write(`|${'---|'.repeat(14 + SHOWN_ROLES.length - 2)}\n${rows.join('\n')}\n`);
    if (overheads.length) {
      process.stdout.write(
        `\nTemporal's share (real − inline)\n| items | connections | p50 ms | platform CPU ms per stamp | platform + Temporal server CPU ms per stamp | empty workflow p50 ms |\n|---|---|---|---|---|---|\n${overheads.join('\n')}\n`,
      );
    }
    process.stdout.write(
      `\nPeak RSS MB: ${Object.entries(peakRss)
        .map(([role, mb]) => `${role} ${mb.toFixed(0)}`)
        .join(', ')}\n`,
    );
    process.stdout.write(`Peak RSS MB by run: ${runPeaks.join('; ')}\n`);
    if (downloads.pdf.length) {
      process.stdout.write(
        `\nDownloads after a 1-item stamp (median ms of ${downloads.pdf.length}): XML ${median(downloads.xml).toFixed(1)}, PDF first ${median(downloads.pdf).toFixed(1)}, PDF again ${median(downloads.pdfAgain).toFixed(1)}, ZIP first ${median(downloads.zip).toFixed(1)}\n`,
      );
    }
    if (payloads.length)
      process.stdout.write(
        `\nThrough Temporal per stamp (one stamp's history)\n| items | events | payload bytes | by event |\n|---|---|---|---|\n${payloads.join('\n')}\n`,
      );
    process.stdout.write(
      `\nTime split (median ms, measured separately)\n| items | build+seal | PAC stamp (sandbox, HTTP) | files (PDF+ZIP) |\n|---|---|---|---|\n${split.join('\n')}\n`,
    );
  } finally {
    await temporalClient?.connection.close();
    await supervisor.stopAll();
    await orm.close();
    fs.rmSync(countDir, { recursive: true, force: true });
  }
}

/** One update-with-start of the empty workflow, with the options the API's stamp uses. */
async function emptyStamp(client: Client): Promise<void> {
  const startWorkflowOperation = new WithStartWorkflowOperation('emptyStampWorkflow', {
    workflowId: `empty-${randomUUID()}`,
    taskQueue: EMPTY_QUEUE,
    // The real stamp's input, and (see empty-workflow.ts) an outcome of the real one's size.
    args: [
      { documentId: `inv_${randomUUID()}`, reconciliation: { firstLookupSeconds: 5, maxLookupSeconds: 300 } },
    ],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
  await client.workflow.executeUpdateWithStart(stampOutcomeUpdate, { startWorkflowOperation });
}

const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
