import type { Command } from 'commander';
import {
  filesCannotRender,
  innermostCause,
  listFailedFiles,
  loadDocumentById,
  type DocumentRow,
} from '@cfdi/services';
import { regenerateFiles } from '@cfdi/temporal-contract/client';
import type { CliContext } from '../context';
import { printRows } from '../print-rows';
import { refuse } from '../refuse';

const summary = (row: DocumentRow) =>
  `${row.id}  ${row.livemode ? 'live' : 'test'}  ${row.account_id}  ${row.uuid}  files ${row.files_status}  since ${row.updated_at}`;

export function registerFilesCommands(program: Command, ctx: CliContext): void {
  const files = program.command('files');

  files
    .command('failed')
    .description('Stamped documents whose files failed to render after every retry')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      printRows(ctx, await listFailedFiles(await ctx.em()), options.json, {
        json: (r) => ({
          id: r.id,
          accountId: r.account_id,
          livemode: r.livemode,
          uuid: r.uuid,
          since: r.updated_at,
        }),
        line: summary,
        none: 'No document has failed files.',
      });
    });

  files
    .command('regenerate')
    .description(
      'Render the files of stamped documents again (through the files workflow), e.g. after a storage outage',
    )
    .argument('[ids...]', 'document ids (inv_…, pay_…)')
    .option('--all-failed', 'every document `cfdi files failed` lists')
    .action(async (ids: string[], options: { allFailed?: boolean }) => {
      if (!options.allFailed && !ids.length) throw new Error('give document ids or --all-failed');
      const em = await ctx.em();
      const rows = options.allFailed
        ? await listFailedFiles(em)
        : await Promise.all(ids.map((id) => loadDocumentById(em, id)));
      // One document's failure does not stop the others; exit code 1 says something was left.
      for (const row of rows) {
        const problem = filesCannotRender(row);
        if (problem) {
          refuse(`${problem}; nothing done.`);
          continue;
        }
        try {
          await regenerateFiles(await ctx.temporal(), row.id, ctx.config.temporal.taskQueue);
          ctx.print(`${row.id}: files ready`, false);
        } catch (error) {
          refuse(`${row.id}: files still failed: ${innermostCause(error).message}`);
        }
      }
    });
}
