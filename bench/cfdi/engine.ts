/**
 * CFDI engine benchmark: documents built + sealed per second (1, 10, 500 items), PDF render
 * time, and TS cadena throughput vs xsltproc on the same 1,000 documents.
 * Run from the repo root: npx tsx bench/cfdi/engine.ts
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildInvoiceXml, cadenaOriginal, renderPdf, sealXml } from '../../packages/cfdi/src';
import { csd, invoice, NOW, SAT_DIR, stampedInvoice } from './fixtures';

const XSLT = path.join(
  SAT_DIR,
  'xml/www.sat.gob.mx/sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt',
);

function time<T>(fn: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const out = fn();
  return [out, Number(process.hrtime.bigint() - start) / 1e6];
}

function buildAndSeal(items: number, count: number): number {
  const [, ms] = time(() => {
    for (let i = 0; i < count; i++) sealXml(buildInvoiceXml(invoice(items, i), { now: NOW }).xml, csd);
  });
  return (count / ms) * 1000;
}

async function pdfMs(items: number): Promise<number> {
  const stamped = stampedInvoice(items);
  await renderPdf(stamped); // warm-up (fonts, QR encoder)
  const start = process.hrtime.bigint();
  await renderPdf(stamped);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function cadenaComparison(
  count: number,
  items: number,
): { tsMs: number; xsltMs: number; xsltPerFileMs: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-bench-'));
  const docs = Array.from(
    { length: count },
    (_, i) => sealXml(buildInvoiceXml(invoice(items, i), { now: NOW }).xml, csd).xml,
  );
  const files = docs.map((xml, i) => {
    const f = path.join(dir, `${i}.xml`);
    fs.writeFileSync(f, xml);
    return f;
  });
  docs.slice(0, 200).forEach((d) => cadenaOriginal(d)); // warm-up (JIT)
  const [ts, tsMs] = time(() => docs.map((d) => cadenaOriginal(d)));
  // xsltproc takes many documents per process; 100 per run keeps argv small.
  const [xslt, xsltMs] = time(() => {
    let out = '';
    for (let i = 0; i < files.length; i += 100) {
      out += execFileSync('xsltproc', [XSLT, ...files.slice(i, i + 100)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 1 << 30,
      });
    }
    return out;
  });
  if (xslt !== ts.join('')) throw new Error('xsltproc and TS cadenas differ');
  const sample = files.slice(0, 50);
  const [, perFile] = time(() =>
    sample.forEach((f) => execFileSync('xsltproc', [XSLT, f], { stdio: ['ignore', 'pipe', 'ignore'] })),
  );
  fs.rmSync(dir, { recursive: true, force: true });
  return { tsMs, xsltMs, xsltPerFileMs: (perFile / sample.length) * count };
}

async function main(): Promise<void> {
  buildAndSeal(10, 20); // warm-up
  const rates = { 1: buildAndSeal(1, 400), 10: buildAndSeal(10, 200), 500: buildAndSeal(500, 10) };
  const pdf3 = await pdfMs(3);
  const pdf500 = await pdfMs(500);
  const cad = cadenaComparison(1000, 10);
  const f = (n: number, d = 1) => n.toFixed(d);
  console.log(`Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`);
  console.log('| Measure | Result |');
  console.log('|---|---|');
  for (const [items, rate] of Object.entries(rates))
    console.log(`| Build + seal, ${items} item(s) | ${f(rate)} documents/s |`);
  console.log(`| PDF render, 3 items | ${f(pdf3, 0)} ms |`);
  console.log(`| PDF render, 500 items | ${f(pdf500, 0)} ms |`);
  console.log(
    `| Cadena, TS, 1,000 docs × 10 items | ${f(cad.tsMs, 0)} ms (${f((1000 / cad.tsMs) * 1000, 0)} docs/s) |`,
  );
  console.log(
    `| Cadena, xsltproc batched (100 files/process) | ${f(cad.xsltMs, 0)} ms (${f((1000 / cad.xsltMs) * 1000, 0)} docs/s) |`,
  );
  console.log(
    `| Cadena, xsltproc one process per file (extrapolated from 50) | ${f(cad.xsltPerFileMs, 0)} ms |`,
  );
  console.log(`| Ratio xsltproc batched / TS | ${f(cad.xsltMs / cad.tsMs, 2)}× |`);
  console.log(`| Ratio xsltproc per file / TS | ${f(cad.xsltPerFileMs / cad.tsMs, 2)}× |`);
}

void main();
