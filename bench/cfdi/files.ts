/**
 * Document files benchmark: the CPU the worker spends after a stamp, per document. `renderPdf` + `buildZip`
 * (1, 50 and 500 items) and the three storage puts (XML, PDF, ZIP), median and p95 after a warm-up, plus the
 * very first document of the process (cold JIT, fonts not loaded yet).
 * Run from the repo root: npx tsx bench/cfdi/files.ts
 *
 * BASELINE=<dir> also loads another version and alternates the two document by document, so both see the same
 * load on this shared VM (the cold first document is then left out: whichever runs first warms the shared
 * dependencies). CURRENT=<dir> measures another version alone. <dir> holds packages/cfdi/src and
 * packages/storage/src, e.g. `git archive <commit> packages/cfdi packages/storage | tar -x -C /tmp/old`, plus
 * /tmp/old/node_modules with links to ./node_modules' packages and a *copy* of pdfkit (a link would share this
 * version's patched pdfkit; see packages/cfdi/src/pdf/afm-cache.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stampedInvoice } from './fixtures';

type Cfdi = typeof import('../../packages/cfdi/src');
type Storage = typeof import('../../packages/storage/src');
interface Version {
  name: string;
  files(xml: string): Promise<{ pdf: Buffer; zip: Buffer }>;
  storage: Storage;
}
interface Sample {
  cpu: number;
  wall: number;
}

const UUID = '5E2D6A2B-8C1F-4B7A-9E3D-1A2B3C4D5E6F';

async function load(name: string, root: string): Promise<Version> {
  const cfdi = (await import(path.join(root, 'packages/cfdi/src/index.ts'))) as Cfdi;
  const storage = (await import(path.join(root, 'packages/storage/src/index.ts'))) as Storage;
  const files = async (xml: string) => {
    const pdf = await cfdi.renderPdf(xml);
    return { pdf, zip: await cfdi.buildZip(cfdi.cfdiZipEntries(UUID, xml, pdf)) };
  };
  return { name, files, storage };
}

/** CPU (user + system, all threads: zlib runs on the libuv pool) and wall time of one call, in ms. */
async function measure(fn: () => Promise<unknown>): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const { user, system } = process.cpuUsage(cpu0);
  return { cpu: (user + system) / 1000, wall };
}

const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (samples: Sample[]): number =>
  quantile(
    samples.map((s) => s.cpu).sort((a, b) => a - b),
    0.5,
  );

function summary(samples: Sample[]): string {
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  const wall = samples.map((s) => s.wall).sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2);
  return `cpu median ${f(quantile(cpu, 0.5))} p95 ${f(quantile(cpu, 0.95))} ms | wall median ${f(quantile(wall, 0.5))} p95 ${f(quantile(wall, 0.95))} ms`;
}

/** Runs `fn` for every version in turn, `count` times, after `warm` unmeasured rounds. */
async function alternate(
  versions: Version[],
  warm: number,
  count: number,
  fn: (v: Version, i: number) => Promise<unknown>,
): Promise<Sample[][]> {
  const samples: Sample[][] = versions.map(() => []);
  for (let i = 0; i < warm + count; i++) {
    for (const [k, v] of versions.entries()) {
      const s = await measure(() => fn(v, i));
      if (i >= warm) samples[k]!.push(s);
    }
  }
  return samples;
}

function report(
  label: string,
  versions: Version[],
  samples: Sample[][],
  extra: (v: Version) => string = () => '',
): void {
  for (const [k, v] of versions.entries())
    console.log(`${label} [${v.name}]: ${summary(samples[k]!)}${extra(v)}`);
  if (versions.length === 2)
    console.log(
      `${label}: baseline / current median CPU = ${(median(samples[1]!) / median(samples[0]!)).toFixed(2)}×`,
    );
}

async function main(): Promise<void> {
  const versions = [
    await load('current', path.resolve(process.env.CURRENT ?? path.join(__dirname, '../..'))),
  ];
  if (process.env.BASELINE) versions.push(await load('baseline', path.resolve(process.env.BASELINE)));
  const docs = { 1: stampedInvoice(1), 50: stampedInvoice(50), 500: stampedInvoice(500) };
  const runs = { 1: [100, 300], 50: [30, 100], 500: [3, 15] } as const;

  console.log(
    `Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (versions.length === 1)
    report(
      'first document of the process, 1 item',
      versions,
      await alternate(versions, 0, 1, (v) => v.files(docs[1])),
    );
  for (const [items, xml] of Object.entries(docs)) {
    const [warm, count] = runs[Number(items) as keyof typeof runs];
    const sizes = new Map<Version, string>();
    for (const v of versions) {
      const { pdf, zip } = await v.files(xml);
      sizes.set(v, ` | pdf ${pdf.length} B, zip ${zip.length} B`);
    }
    report(
      `render + zip, ${items} item(s)`,
      versions,
      await alternate(versions, warm, count, (v) => v.files(xml)),
      (v) => sizes.get(v)!,
    );
  }

  // One directory per document, as in production (acct/mode/documents/<id>/...).
  const xml = docs[50];
  const { pdf, zip } = await versions[0]!.files(xml);
  const roots = versions.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-bench-files-')));
  const stores = versions.map((v, k) => new v.storage.LocalFileStorage(roots[k]!));
  const putAll = async (v: Version, n: number) => {
    const storage = stores[versions.indexOf(v)]!;
    const dir = `acct_bench/test/documents/doc_${n}`;
    await storage.put(`${dir}/${UUID}.xml`, Buffer.from(xml, 'utf8'), 'application/xml');
    await storage.put(`${dir}/${UUID}.pdf`, pdf, 'application/pdf');
    await storage.put(`${dir}/${UUID}.zip`, zip, 'application/zip');
  };
  report('storage, 3 puts (50-item document)', versions, await alternate(versions, 30, 200, putAll));
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}

void main();
