// bench/exports: console exports built by the export workflow (real worker process, real Temporal dev server) on one
// account of 100,000 stamped documents: a CSV of all of them, and a ZIP of one month (~10,000 documents) twice, with
// the PDFs stored (the files queue rendered them after stamping) and with them missing (rendered on demand).
// Usage: npx tsx bench/exports/run.ts [documents=100000]
//   A database cfdi_bench_exports_<random> and storage var/bench-exports-<random> are made and removed at the end
//   (BENCH_KEEP_DB=1 keeps both). BENCH_TEMPORAL_PORT picks the dev server's port (a free one otherwise).
//   Seeding: the documents and their ledger in a few SQL statements (bench/scale/seed.ts) over 300 days, so a
//   calendar month holds ~10,000; each stamped one holds a real stamped XML (one sealed and stamped invoice, its UUID
//   replaced by the document's). The files of last month are stored (XML, and one real PDF and ZIP for all); the
//   month before has none, as the stamp path leaves them when files are produced on demand.
//   BENCH_CASES=csv,zip-stored,zip-missing picks the exports (all by default); BENCH_CPU_PROF=<dir> runs the worker
//   with --cpu-prof into that directory (written when the bench stops it).
//   Figures per export: seconds from the workflow's start until the export is ready, CPU seconds of the worker, the
//   Temporal server and PostgreSQL, the worker's RSS before and at its peak (sampled every 100 ms), the file's size.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@cfdi/config';
import type { EntityManager } from '@cfdi/db';
import { freePort, startTemporalDevServer, Supervisor } from '@cfdi/devstack';
import { dropDatabase } from '@cfdi/pac-sandbox';
import { createPlatform } from '@cfdi/platform';
import {
  createAccount,
  createDocumentExport,
  monthRange,
  renderPdfAndZip,
  type DocumentSearch,
  type ExportFormat,
  type Scope,
} from '@cfdi/services';
import { startDocumentExport } from '@cfdi/temporal-contract/client';
import { stackEnv } from '@cfdi/testkit';
import { stampedInvoice } from '../cfdi/fixtures';
import { cpuSecondsByGroup, commandsCpuTracker, rssMbOfGroups } from '../process-stats';
import { log, openBenchDatabase, root } from '../bench-stack';
import { seedAccount, seedStoredFiles } from '../scale/seed';

const documents = Number(process.argv[2] ?? 100_000);
const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

/** A calendar month `back` months before this one, as YYYY-MM (Mexico City's calendar, near enough for a bench). */
function monthAgo(back: number): string {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15));
  return at.toISOString().slice(0, 7);
}

async function seed(em: EntityManager, storageDir: string): Promise<Scope> {
  const config = loadConfig();
  const { accountId } = await createAccount(em, config, { name: 'Bench exports' });
  const merchantId = `mch_exports${randomBytes(6).toString('hex')}`;
  await em.execute(
    `insert into merchants (id, account_id, livemode, rfc, legal_name, regimen_fiscal, zip, serie)
     values (?, ?, false, 'EKU9003173C9', 'ESCUELA KEMPER URGATE', '601', '42501', 'A')`,
    [merchantId, accountId],
  );
  let started = Date.now();
  const xml = stampedInvoice(3, PLACEHOLDER);
  await seedAccount(em, accountId, merchantId, documents, {
    days: 300,
    // None left stamping: a worker would resume them (and the bench would measure that).
    inFlight: 0,
    stamped: { xml, placeholder: PLACEHOLDER },
  });
  await em.execute('vacuum analyze documents');
  log(`seeded ${documents} documents (${xml.length} bytes of XML each) in ${Date.now() - started} ms`);
  started = Date.now();
  const rendered = await renderPdfAndZip(PLACEHOLDER, xml, {});
  const stored = await seedStoredFiles(em, storageDir, accountId, monthAgo(1), rendered);
  log(`stored the XML, PDF and ZIP of ${stored} documents of ${monthAgo(1)} in ${Date.now() - started} ms`);
  return { accountId, livemode: false, keyId: 'bench', merchantIds: null };
}

interface Case {
  id: string;
  name: string;
  format: ExportFormat;
  search: DocumentSearch;
}

async function main(): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const dbName = `cfdi_bench_exports_${suffix}`;
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  const storageDir = path.join(root, `var/bench-exports-${suffix}`);
  const temporalPort = Number(process.env.BENCH_TEMPORAL_PORT ?? (await freePort()));
  const taskQueue = `bench-exports-${suffix}`;
  Object.assign(process.env, {
    ...stackEnv({
      databaseUrl,
      pacDatabaseUrl: databaseUrl,
      apiPort: await freePort(),
      pacPort: await freePort(),
      taskQueue,
      storageDir,
    }),
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
  });
  const orm = await openBenchDatabase(databaseUrl);
  const supervisor = new Supervisor((name, code) => log(`${name} exited (${code})`));
  const platform = await createPlatform(loadConfig());
  const postgresCpu = commandsCpuTracker([dbName]);
  try {
    const scope = await seed(orm.em.fork(), storageDir);
    await startTemporalDevServer(supervisor, { port: temporalPort, logLevel: 'error', log });
    const worker = supervisor.start(
      'worker',
      process.execPath,
      [
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        '--import',
        'tsx',
        path.join(root, 'apps/worker/src/main.ts'),
      ],
      { cwd: root },
    );
    const temporal = supervisor.pids.find((child) => child.name === 'temporal')!.pid!;
    const groups = { worker: [worker.pid!], temporal: [temporal] };

    const run = async ({ format, search }: Case) => {
      const job = await createDocumentExport(orm.em.fork(), scope, { format, search, requestedBy: null });
      const cpuBefore = { ...cpuSecondsByGroup(groups), postgres: postgresCpu.seconds() };
      const rssBefore = rssMbOfGroups(groups.worker);
      let peakRss = rssBefore;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMbOfGroups(groups.worker))), 100);
      const started = performance.now();
      await startDocumentExport(platform.temporal, job.id, taskQueue);
      let row: { status: string; bytes: string | null; file_key: string | null; error: string | null };
      for (;;) {
        [row] = await orm.em
          .fork()
          .execute('select status, bytes, file_key, error from document_exports where id = ?', [job.id]);
        if (row!.status !== 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const cpuAfter = { ...cpuSecondsByGroup(groups), postgres: postgresCpu.seconds() };
      if (row!.status !== 'ready') throw new Error(`export ${job.id}: ${row!.status} ${row!.error}`);
      return {
        total: job.total,
        seconds,
        cpu: Object.fromEntries(
          Object.entries(cpuAfter).map(([role, s]) => [role, s - cpuBefore[role as keyof typeof cpuBefore]]),
        ),
        rssBefore,
        peakRss,
        file: path.join(storageDir, row!.file_key!),
      };
    };

    // Warm-up: the worker bundles its workflows and connects; one day's CSV goes through the whole path once.
    const day = monthRange(monthAgo(2))!.from;
    await run({ id: 'warm-up', name: 'warm-up', format: 'csv', search: { from: day, to: day } });
    const picked = process.env.BENCH_CASES?.split(',');
    const cases = (
      [
        { id: 'csv', name: `CSV, all ${documents} documents`, format: 'csv', search: {} },
        {
          id: 'zip-stored',
          name: `ZIP, ${monthAgo(1)}, PDFs stored`,
          format: 'zip',
          search: monthRange(monthAgo(1))!,
        },
        {
          id: 'zip-missing',
          name: `ZIP, ${monthAgo(2)}, PDFs missing`,
          format: 'zip',
          search: monthRange(monthAgo(2))!,
        },
      ] satisfies Case[]
    ).filter((c) => !picked || picked.includes(c.id));
    const lines: string[] = [];
    for (const c of cases) {
      const result = await run(c);
      const bytes = fs.statSync(result.file).size;
      const check = c.format === 'csv' ? csvRows(result.file) : zipEntries(result.file);
      const line =
        `| ${c.name} | ${result.total} | ${result.seconds.toFixed(1)} | ${result.cpu.worker!.toFixed(1)} | ` +
        `${result.cpu.temporal!.toFixed(1)} | ${result.cpu.postgres!.toFixed(1)} | ${result.rssBefore.toFixed(0)} → ${result.peakRss.toFixed(0)} | ` +
        `${(bytes / 1e6).toFixed(1)} | ${check} |`;
      log(line);
      lines.push(line);
    }
    const config = loadConfig();
    process.stdout.write(
      `\n${documents} documents, EXPORT_PART_DOCUMENTS=${config.exportPartDocuments}, ${os.cpus().length} CPUs, ` +
        `load average ${os.loadavg()[0]!.toFixed(1)}\n` +
        '| export | documents | s | worker CPU s | Temporal CPU s | PostgreSQL CPU s | worker RSS MB, before → peak | file MB | file holds |\n' +
        `|---|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n`,
    );
  } finally {
    postgresCpu.stop();
    await supervisor.stopAll();
    await platform.close();
    await orm.close();
    if (!process.env.BENCH_KEEP_DB) {
      await dropDatabase(databaseUrl);
      fs.rmSync(storageDir, { recursive: true, force: true });
    }
  }
}

/** The CSV's data rows (lines less the header). */
function csvRows(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  return `${text.split('\n').length - 2} rows`;
}

/** The entry count of the ZIP's end record. */
function zipEntries(file: string): string {
  const handle = fs.openSync(file, 'r');
  const end = Buffer.alloc(22);
  fs.readSync(handle, end, 0, 22, fs.fstatSync(handle).size - 22);
  fs.closeSync(handle);
  return `${end.readUInt16LE(10)} entries`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
