// What the benches that start a stack share: where the apps are, how progress is logged, and the database set-up.
import path from 'node:path';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';
import { importCatalogsIfNeeded } from '@cfdi/devstack';

/** The repository's root, from which the apps' entry files are started. */
export const root = path.resolve(__dirname, '..');

/** Progress on stderr: stdout carries the figures. */
export const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

/** The platform's database of a bench: created when missing, migrated, with the SAT catalogs imported. */
export async function openBenchDatabase(databaseUrl: string): Promise<Orm> {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  await importCatalogsIfNeeded(orm, log);
  return orm;
}
