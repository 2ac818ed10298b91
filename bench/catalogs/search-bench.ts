/**
 * Server-side latency of product search over the full SAT catalog: 1,000 mixed queries against the
 * in-process index and, for comparison, against PostgreSQL (LIKE on a sequential scan, and pg_trgm).
 * Needs the catalogs imported into $DATABASE_URL (`npx tsx catalogs/scripts/import-catalogs.ts`).
 *   npx tsx bench/catalogs/search-bench.ts
 */
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { loadCatalogIndex, readSnapshot } from '@cfdi/catalogs';
import { foldAccents } from '@cfdi/catalogs/src/search/normalize-text';
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
    console.log(
      `index: ${index.productCount} products, ${index.unitCount} units, loaded+built in ${(performance.now() - started).toFixed(0)} ms`,
    );
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
    const timeSql = async (run: (q: string, words: string[]) => Promise<unknown>) => {
      const samples: number[] = [];
      for (const q of queries) {
        const words = foldAccents(q).split(/\s+/).filter(Boolean);
        started = performance.now();
        await run(q, words);
        samples.push(performance.now() - started);
      }
      return percentiles(samples);
    };
    const likeAll = (column: string, words: string[]) => words.map(() => `${column} like ?`).join(' and ');

    const plain = await timeSql((q, words) =>
      knex.raw(
        `select clave, descripcion from catalog_products
       where clave like ? or (${likeAll("lower(descripcion || ' ' || palabras_similares)", words)}) order by clave limit 20`,
        [`${q}%`, ...words.map((w) => `%${w}%`)],
      ),
    );
    console.log(`PostgreSQL LIKE, sequential scan (no accent folding, no ranking): ${plain}`);

    // The best case for SQL: accent-folded text precomputed and a pg_trgm GIN index, still without ranking.
    // Everything (extension included) happens in a transaction that is rolled back.
    await knex
      .transaction(async (trx) => {
        await trx.raw('create extension if not exists pg_trgm');
        await trx.raw(
          'create temp table bench_products (clave text collate "C" primary key, doc text not null)',
        );
        const products = (await readSnapshot(em)).products;
        await trx.raw(
          'insert into bench_products select * from jsonb_to_recordset(?::jsonb) as x(clave text, doc text)',
          [
            JSON.stringify(
              products.map((p) => ({
                clave: p.clave,
                doc: foldAccents(`${p.descripcion} ${p.palabrasSimilares}`),
              })),
            ),
          ],
        );
        await trx.raw('create index on bench_products using gin (doc gin_trgm_ops)');
        await trx.raw('analyze bench_products');
        const trgm = await timeSql((q, words) =>
          trx.raw(
            `select clave from bench_products where clave like ? or (${likeAll('doc', words)}) order by clave limit 20`,
            [`${q}%`, ...words.map((w) => `%${w}%`)],
          ),
        );
        console.log(`PostgreSQL pg_trgm GIN on folded text (no ranking): ${trgm}`);
        await trx.rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Error && error.message.includes('Transaction rejected with non-error')))
          throw error;
      });
  } finally {
    await orm.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
