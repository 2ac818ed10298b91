/**
 * Standalone import for development and for the kill test (which needs a separate process):
 * `npx tsx catalogs/scripts/import-catalogs.ts [dir-or-workbook]` against $DATABASE_URL.
 * Operators use `cfdi catalogs import`, which runs the same function.
 */
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { createProgressReporter, defaultCatalogsDir, formatSummary, importCatalogs } from '../src';

async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await createOrm(config.databaseUrl);
  const reporter = createProgressReporter();
  try {
    const result = await importCatalogs({
      em: orm.em.fork(),
      source: process.argv[2] ?? defaultCatalogsDir(),
      onProgress: reporter.onProgress,
    });
    console.log(formatSummary(result));
  } finally {
    reporter.stop();
    await orm.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
