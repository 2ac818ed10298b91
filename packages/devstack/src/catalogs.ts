import fs from 'node:fs';
import { CATALOG_NAMES, defaultCatalogsDir, formatSummary, importCatalogs } from '@cfdi/catalogs';
import type { Orm } from '@cfdi/db';

/**
 * Imports the SAT catalog data when it is found (CATALOGS_DIR, default ../shared/sat/catalogs) and some catalog the
 * project knows was never imported: a fresh database, or one from before a release added catalogs (the fracciones
 * arancelarias of exports). Small catalogs ship with the project; product and unit keys need this import.
 */
export async function importCatalogsIfNeeded(orm: Orm, log: (line: string) => void): Promise<void> {
  const em = orm.em.fork();
  const imported: { catalog: string }[] = await em.execute('select catalog from catalog_versions');
  const known = new Set(imported.map((row) => row.catalog));
  if (CATALOG_NAMES.every((name) => known.has(name))) return;
  const source = defaultCatalogsDir();
  if (!fs.existsSync(source)) {
    log(
      `SAT catalog data not found at ${source}: product and unit keys cannot be validated until you run \`npx cfdi catalogs import <dir>\` (or set CATALOGS_DIR).`,
    );
    return;
  }
  log(`importing SAT catalogs from ${source}…`);
  const result = await importCatalogs({ em, source });
  log(formatSummary(result));
}
