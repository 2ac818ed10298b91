import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import type { Orm } from '@cfdi/db';
import { importCatalogs } from '../src/import/import-catalogs';
import { catalogVersion } from '../src/load-catalog-index';
import { openTestDatabase, testDatabaseUrl } from './helpers/test-database';
import { pollUntil } from './helpers/poll';
import { satCatalogsDir, setField, tsvCopy } from './helpers/source-dirs';

const DATABASE = 'cfdi_catalogs_test_kill';
let orm: Orm;
beforeAll(async () => {
  orm = await openTestDatabase(DATABASE);
});
afterAll(() => orm.close());

const one = async <T>(sql: string) => (await orm.em.getKnex().raw(sql)).rows[0] as T;

test('an import killed midway leaves the previous data of every catalog intact', async () => {
  // "Old" data that differs from the full source: 1,000 products and a renamed unit.
  const old = await tsvCopy({
    'products.tsv': (lines) => lines.slice(0, 1000),
    'units.tsv': (lines) => setField(lines, 'H87', 1, 'Pieza antigua'),
  });
  await importCatalogs({ em: orm.em.fork(), source: old });
  const version = await catalogVersion(orm.em.fork());

  // Holding SHARE on catalog_products stops the child at its products merge, after it has already
  // staged everything and merged units inside its transaction: a deterministic "midway".
  const url = testDatabaseUrl(DATABASE);
  const blocker = new Client({ connectionString: url });
  await blocker.connect();
  await blocker.query('begin');
  await blocker.query('lock table catalog_products in share mode');

  const script = path.resolve(__dirname, '../scripts/import-catalogs.ts');
  // `node --import tsx` rather than the tsx CLI: the CLI runs the script in a grandchild that SIGKILL would miss.
  const child = spawn(process.execPath, ['--import', 'tsx', script, satCatalogsDir], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );

  try {
    await pollUntil(
      async () => {
        if (child.exitCode !== null)
          throw new Error(`the child import exited (${child.exitCode}) before blocking:\n${output}`);
        if (!output.includes('products: merging')) return false;
        const waiting = await blocker.query(
          "select 1 from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'catalog_products' and not l.granted",
        );
        return (waiting.rowCount ?? 0) > 0;
      },
      30_000,
      'the child import to block on catalog_products',
    );
    expect(output).toMatch(/units 2418 rows \(\+0 ~1 -0\)/);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
  } finally {
    child.kill('SIGKILL');
    await blocker.query('rollback');
    await blocker.end();
  }

  expect(await one('select count(*)::int as n from catalog_products')).toEqual({ n: 1000 });
  expect(await one("select nombre from catalog_units where clave = 'H87'")).toEqual({
    nombre: 'Pieza antigua',
  });
  expect(await catalogVersion(orm.em.fork())).toBe(version);

  // The killed session's advisory lock went with it: the next import runs and completes the data.
  const retried = await importCatalogs({ em: orm.em.fork(), source: satCatalogsDir });
  expect(retried.catalogs.find((c) => c.catalog === 'products')).toMatchObject({
    added: 51514,
    changed: 0,
    removed: 0,
  });
});
