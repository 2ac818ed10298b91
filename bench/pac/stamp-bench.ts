/**
 * Sandbox PAC benchmark over real HTTP with the Finkok adapter: stamp latency and throughput,
 * duplicate (307) and `stamped` lookups, with and without xmllint XSD validation. Documents come
 * from @cfdi/cfdi's invoice builder, so this also checks builder → sandbox compatibility.
 * Run from the repo root: npx tsx bench/pac/stamp-bench.ts
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildSandboxApp, dropDatabase } from '../../apps/pac-sandbox/src';
import { benchPacClient, SAT_DIR, sealedInvoices } from './fixtures';

const NOW = new Date('2026-11-21T18:00:00Z');
const ADMIN = process.env.PAC_SANDBOX_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Sealed 5 minutes before the pinned clock, as an issuer would right before stamping. */
const sealedDocs = (from: number, count: number, items = 3) =>
  sealedInvoices({ from, count, items, serie: 'BENCH', sealedAt: new Date(NOW.getTime() - 300_000) });

function percentiles(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const p = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!.toFixed(1);
  return `p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms`;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const out = await fn();
  return [out, Number(process.hrtime.bigint() - start) / 1e6];
}

async function run(
  label: string,
  options: { xsdPath?: string },
  plan: { sequential: number; concurrent: number[]; count: number },
) {
  const url = new URL(ADMIN);
  url.pathname = `/pac_sandbox_bench_${randomBytes(4).toString('hex')}`;
  const app = await buildSandboxApp({ databaseUrl: url.toString(), now: () => NOW, ...options });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const pac = benchPacClient(base);
  try {
    await pac.registerCsd({ rfc: 'EKU9003173C9' });
    let folio = 1;
    const docs = sealedDocs(folio, plan.sequential);
    folio += plan.sequential;
    const latencies: number[] = [];
    for (const xml of docs) {
      const [r, ms] = await timed(() => pac.stamp(xml));
      if (r.outcome !== 'stamped') throw new Error(JSON.stringify(r));
      latencies.push(ms);
    }
    console.log(`${label}: stamp, sequential (${plan.sequential}): ${percentiles(latencies)}`);
    const dup: number[] = [];
    const lookup: number[] = [];
    for (const xml of docs.slice(0, 100)) {
      dup.push((await timed(() => pac.stamp(xml)))[1]);
      lookup.push((await timed(() => pac.lookupStamped(xml)))[1]);
    }
    console.log(`${label}: duplicate stamp (307 with data): ${percentiles(dup)}`);
    console.log(`${label}: stamped lookup: ${percentiles(lookup)}`);
    for (const concurrency of plan.concurrent) {
      const batch = sealedDocs(folio, plan.count);
      folio += plan.count;
      let next = 0;
      const [, ms] = await timed(() =>
        Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < batch.length) {
              const r = await pac.stamp(batch[next++]!);
              if (r.outcome !== 'stamped') throw new Error(JSON.stringify(r));
            }
          }),
        ),
      );
      console.log(
        `${label}: ${plan.count} stamps at concurrency ${concurrency}: ${((plan.count / ms) * 1000).toFixed(0)} stamps/s`,
      );
    }
  } finally {
    pac.close();
    await app.close();
    await dropDatabase(url.toString());
  }
}

async function main() {
  await run('structural checks', {}, { sequential: 300, concurrent: [8, 32], count: 1000 });
  await run(
    'with XSD (xmllint)',
    { xsdPath: path.join(SAT_DIR, 'xml/cfdi40-bundle.xsd') },
    { sequential: 30, concurrent: [8], count: 100 },
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
