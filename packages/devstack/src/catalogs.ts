import fs from 'node:fs';
import { defaultCatalogsDir, formatSummary, importCatalogs } from '@cfdi/catalogs';
import type { Orm } from '@cfdi/db';

/**
 * Imports the SAT catalog data on a fresh database when it is found (CATALOGS_DIR, default ../shared/sat/catalogs).
 * Small catalogs ship with the project; product and unit keys need this import for the fiscal validation.
 */
export async function importCatalogsIfNeeded(orm: Orm, log: (line: string) => void): Promise<void> {
  const em = orm.em.fork();
  const rows: { n: string }[] = await em.execute('select count(*) as n from catalog_products');
  if (Number(rows[0]?.n ?? 0) > 0) return;
  const source = defaultCatalogsDir();
  if (!fs.existsSync(source)) {
    log(`SAT catalog data not found at ${source}: product and unit keys cannot be validated until you run \`npx cfdi catalogs import <dir>\` (or set CATALOGS_DIR).`);
    return;
  }
  log(`importing SAT catalogs from ${source}…`);
  const result = await importCatalogs({ em, source });
  log(formatSummary(result));
}
