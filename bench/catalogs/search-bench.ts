/**
 * Server-side latency of product search over the full SAT catalog: 1,000 mixed queries against the
 * in-process index and, for comparison, against PostgreSQL (unaccent-free ILIKE over the same table).
 * Needs the catalogs imported into $DATABASE_URL (`npx tsx catalogs/scripts/import-catalogs.ts`).
 *   npx tsx bench/catalogs/search-bench.ts
 */
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { loadCatalogIndex, readSnapshot } from '@cfdi/catalogs';
import { queryMix } from './query-mix';

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(3);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(3)} ms`;
}

async function main(): Promise<void> {
  const orm = await createOrm(loadConfig().databaseUrl);
  try {
    const em = orm.em.fork();
    let started = performance.now();
    const index = await loadCatalogIndex(em);
    console.log(`index: ${index.productCount} products, ${index.unitCount} units, loaded+built in ${(performance.now() - started).toFixed(0)} ms`);
    console.log(`heap used after build: ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`);
    const queries = queryMix((await readSnapshot(em)).products);

    for (const q of queries.slice(0, 200)) index.searchProducts(q, 20); // JIT warm-up
    const inProcess = queries.map((q) => {
      started = performance.now();
      index.searchProducts(q, 20);
      return performance.now() - started;
    });
    console.log(`in-process, 1000 queries, limit 20: ${percentiles(inProcess)}`);

    const knex = em.getKnex();
    const sql: number[] = [];
    for (const q of queries) {
      const words = q.split(/\s+/).filter(Boolean);
      started = performance.now();
      await knex.raw(
        `select clave, descripcion from catalog_products
         where clave like ? or (${words.map(() => "(descripcion || ' ' || palabras_similares) ilike ?").join(' and ')})
         order by clave limit 20`,
        [`${q}%`, ...words.map((w) => `%${w}%`)],
      );
      sql.push(performance.now() - started);
    }
    console.log(`PostgreSQL ILIKE (no index, no accent folding, no ranking), 1000 queries: ${percentiles(sql)}`);
  } finally {
    await orm.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
