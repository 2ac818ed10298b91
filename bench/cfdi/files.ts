/**
 * Document files benchmark: the CPU the worker spends after a stamp, per document. `renderPdf` + `buildZip`
 * (1, 50 and 500 items) and the three storage puts (XML, PDF, ZIP), median and p95 after a warm-up, plus the
 * very first document of the process (cold JIT, fonts not loaded yet).
 * Run from the repo root: npx tsx bench/cfdi/files.ts
 * To compare with another version, point CFDI_SRC / STORAGE_SRC at a copy of packages/cfdi/src and
 * packages/storage/src (e.g. `git archive <commit> packages/cfdi packages/storage | tar -x -C /tmp/old`, plus a
 * node_modules symlink) and run both alternately: the VM is shared, so only interleaved runs compare.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stampedInvoice } from './fixtures';

type Cfdi = typeof import('../../packages/cfdi/src');
type Storage = typeof import('../../packages/storage/src');

const cfdiSrc = path.resolve(process.env.CFDI_SRC ?? path.join(__dirname, '../../packages/cfdi/src'));
const storageSrc = path.resolve(process.env.STORAGE_SRC ?? path.join(__dirname, '../../packages/storage/src'));
const UUID = '5E2D6A2B-8C1F-4B7A-9E3D-1A2B3C4D5E6F';

/** CPU (user + system, all threads: zlib runs on the libuv pool) and wall time of one call, in ms. */
async function measure(fn: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const { user, system } = process.cpuUsage(cpu0);
  return { cpu: (user + system) / 1000, wall };
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function summary(samples: Array<{ cpu: number; wall: number }>): string {
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  const wall = samples.map((s) => s.wall).sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2);
  return `cpu median ${f(quantile(cpu, 0.5))} p95 ${f(quantile(cpu, 0.95))} ms | wall median ${f(quantile(wall, 0.5))} p95 ${f(quantile(wall, 0.95))} ms`;
}

async function main(): Promise<void> {
  const cfdi = (await import(path.join(cfdiSrc, 'index.ts'))) as Cfdi;
  const storageModule = (await import(path.join(storageSrc, 'index.ts'))) as Storage;
  const files = async (xml: string) => {
    const pdf = await cfdi.renderPdf(xml);
    return { pdf, zip: await cfdi.buildZip(cfdi.cfdiZipEntries(UUID, xml, pdf)) };
  };
  const docs = { 1: stampedInvoice(1), 50: stampedInvoice(50), 500: stampedInvoice(500) };
  const runs = { 1: [100, 300], 50: [30, 100], 500: [3, 15] } as const;

  console.log(`Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os.loadavg()[0]!.toFixed(1)}, cfdi ${cfdiSrc}`);
  console.log(`first document of the process, 1 item: ${summary([await measure(() => files(docs[1]))])}`);
  for (const [items, xml] of Object.entries(docs)) {
    const [warm, count] = runs[Number(items) as keyof typeof runs];
    for (let i = 0; i < warm; i++) await files(xml);
    const samples = [];
    for (let i = 0; i < count; i++) samples.push(await measure(() => files(xml)));
    const { pdf, zip } = await files(xml);
    console.log(`render + zip, ${items} item(s): ${summary(samples)} | pdf ${pdf.length} B, zip ${zip.length} B`);
  }

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-bench-files-'));
  const storage = new storageModule.LocalFileStorage(root);
  const xml = docs[50];
  const { pdf, zip } = await files(xml);
  // One directory per document, as in production (acct/mode/documents/<id>/...).
  const putAll = async (n: number) => {
    const dir = `acct_bench/test/documents/doc_${n}`;
    await storage.put(`${dir}/${UUID}.xml`, Buffer.from(xml, 'utf8'), 'application/xml');
    await storage.put(`${dir}/${UUID}.pdf`, pdf, 'application/pdf');
    await storage.put(`${dir}/${UUID}.zip`, zip, 'application/zip');
  };
  for (let i = 0; i < 30; i++) await putAll(i);
  const samples = [];
  for (let i = 30; i < 230; i++) samples.push(await measure(() => putAll(i)));
  console.log(`storage, 3 puts (50-item document): ${summary(samples)}`);
  fs.rmSync(root, { recursive: true, force: true });
}

void main();
