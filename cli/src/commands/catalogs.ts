import type { Command } from 'commander';
import {
  CatalogShrinkError,
  CatalogSourceError,
  createProgressReporter,
  defaultCatalogsDir,
  formatSummary,
  importCatalogs,
} from '@cfdi/catalogs';
import type { CliContext } from '../context';

export function registerCatalogsCommands(program: Command, ctx: CliContext): void {
  const catalogs = program.command('catalogs');

  const importCommand = catalogs
    .command('import [dir-or-file]')
    .description(
      'Import SAT catalogs from a directory of TSV files or an official catCFDI_V_4 workbook (.xls/.xlsx). ' +
        'Only differences are written, all in one transaction; default source: $CATALOGS_DIR or <SAT_DIR>/catalogs',
    )
    .option('--json', 'print the result as JSON')
    .option(
      '--allow-shrink',
      "accept a source that removes more than 10% of a catalog's keys (refused otherwise: a truncated file?)",
    )
    .action(async (source: string | undefined, options: { json?: boolean; allowShrink?: boolean }) => {
      // Progress goes to stderr (a bar on a terminal, plain lines otherwise) so --json output stays clean.
      const reporter = createProgressReporter(process.stderr);
      try {
        const result = await importCatalogs({
          em: await ctx.em(),
          source: source ?? ctx.config.catalogsDir ?? defaultCatalogsDir(),
          onProgress: reporter.onProgress,
          allowShrink: Boolean(options.allowShrink),
        });
        ctx.print(options.json ? result : formatSummary(result), Boolean(options.json));
      } catch (error) {
        // A bad source is the operator's input, not a crash: one line, no stack.
        if (error instanceof CatalogSourceError || error instanceof CatalogShrinkError)
          importCommand.error(`error: ${error.message}`);
        throw error;
      } finally {
        reporter.stop();
      }
    });
}
