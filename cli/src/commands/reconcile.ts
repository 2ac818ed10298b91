import os from 'node:os';
import type { Command } from 'commander';
import {
  checkReconciliationDecision,
  listAwaitingReconciliation,
  loadDocumentById,
  reconciliationHistory,
  ValidationError,
  type CheckedReconciliation,
  type DocumentRow,
} from '@cfdi/services';
import { signalReconciliation } from '@cfdi/temporal-contract/client';
import type { CliContext } from '../context';
import { printRows } from '../print-rows';
import { refuse } from '../refuse';

/** The option that carries each field of the services' decision, to name it in a refusal. */
const OPTION_OF: Record<string, string> = {
  '/decision': '--stamped or --not-stamped',
  '/uuid': '--uuid',
  '/withoutXml': '--without-xml',
  '/note': '--note',
  '/resolvedBy': '--by',
};
const summary = (row: DocumentRow) =>
  `${row.id}  ${row.livemode ? 'live' : 'test'}  ${row.account_id}  ${row.serie}-${row.folio}  total ${row.total}  since ${row.updated_at}\n    ${row.failure_detail ?? ''}`;

/** The stamp workflow's input, for a decision that has to start the workflow (see signalReconciliation). */
const stampInput = (ctx: CliContext, documentId: string) => ({
  documentId,
  reconciliation: ctx.config.reconciliation,
});

export function registerReconcileCommands(program: Command, ctx: CliContext): void {
  const reconcile = program.command('reconcile');

  reconcile
    .command('list')
    .description('Documents awaiting reconciliation (their timbre stays reserved until decided)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      printRows(ctx, await listAwaitingReconciliation(await ctx.em()), options.json, {
        json: (r) => ({ id: r.id, accountId: r.account_id, livemode: r.livemode, detail: r.failure_detail }),
        line: summary,
        none: 'Nothing awaits reconciliation.',
      });
    });

  reconcile
    .command('show <documentId>')
    .description('A document, its ambiguous failure and every resolution recorded for it')
    .option('--json', 'print JSON')
    .action(async (documentId: string, options: { json?: boolean }) => {
      const em = await ctx.em();
      const row = await loadDocumentById(em, documentId);
      const history = await reconciliationHistory(em, documentId);
      const view = {
        id: row.id,
        status: row.status,
        needsReconciliation: row.needs_reconciliation,
        uuid: row.uuid,
        detail: row.failure_detail,
        reservation: { id: row.reservation_id, state: row.reservation_state },
        resolutions: history,
      };
      if (options.json) return ctx.print(view, true);
      ctx.print(
        `${summary(row)}\n  status ${row.status}${row.uuid ? ` uuid ${row.uuid}` : ''}  reservation ${row.reservation_id} (${row.reservation_state})`,
        false,
      );
      for (const h of history)
        ctx.print(
          `  ${h.created_at}  ${h.resolution}${h.uuid ? ` ${h.uuid}` : ''} by ${h.resolved_by}${h.note ? `: ${h.note}` : ''}`,
          false,
        );
    });

  reconcile
    .command('resolve <documentId>')
    .description(
      'Record the decision: --stamped --uuid UUID (confirms the timbre) or --not-stamped (refunds it), --note saying why',
    )
    .option('--stamped', 'the PAC stamped it')
    .option('--uuid <uuid>', 'UUID of the stamp (with --stamped)')
    .option(
      '--without-xml',
      'with --stamped: record the UUID even though the PAC has no copy of the stamp (no XML, no files)',
    )
    .option('--not-stamped', 'the PAC never stamped it')
    .option(
      '--note <text>',
      'why (kept with the resolution)',
      // Scripts written before the note was asked for keep working; the record says no reason was given.
      'no reason given (cfdi reconcile resolve)',
    )
    .option('--by <name>', 'who decides', process.env.USER ?? os.userInfo().username)
    .action(
      async (
        documentId: string,
        options: {
          stamped?: boolean;
          notStamped?: boolean;
          uuid?: string;
          withoutXml?: boolean;
          note?: string;
          by: string;
        },
      ) => {
        // The flags become the services' decision; its rules and refusals are the console's too.
        const input = {
          decision:
            Boolean(options.stamped) === Boolean(options.notStamped)
              ? null
              : options.stamped
                ? 'stamped'
                : 'not_stamped',
          uuid: options.uuid,
          withoutXml: options.withoutXml,
          note: options.note,
          resolvedBy: options.by,
        };
        const { pac } = await ctx.platform();
        let checked: CheckedReconciliation;
        try {
          checked = await checkReconciliationDecision(await ctx.em(), pac, documentId, input);
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          const path = error.extra.errors?.[0]?.path ?? '';
          return refuse(`${error.message} (${OPTION_OF[path] ?? path})`);
        }
        if (!checked.ok)
          return refuse(
            checked.refusal.reason === 'pac_disagrees'
              ? `${checked.refusal.message} Check the UUID, or repeat with --without-xml.`
              : checked.refusal.message,
          );
        const { resolution } = checked;
        await signalReconciliation(
          await ctx.temporal(),
          stampInput(ctx, documentId),
          resolution,
          ctx.config.temporal.taskQueue,
        );
        ctx.print(
          `Decision sent to the stamp workflow of ${documentId}: ${resolution.stamped ? `stamped ${resolution.uuid}` : 'not stamped'}.`,
          false,
        );
      },
    );

  reconcile
    .command('auto')
    .description('Ask the PAC now about every pending document; resolve those it reports stamped')
    .option('--by <name>', 'recorded as the resolver', 'cfdi reconcile auto')
    .action(async (options: { by: string }) => {
      const rows = await listAwaitingReconciliation(await ctx.em());
      const { pac } = await ctx.platform();
      for (const row of rows) {
        // One document's failure (Temporal or the PAC unreachable for it) does not stop the others; exit code 1 says so.
        try {
          const lookup = await pac
            .forMode(row.livemode)
            .lookupStamped(row.sealed_xml!, { correlationId: row.id });
          if (lookup.outcome === 'stamped') {
            await signalReconciliation(
              await ctx.temporal(),
              stampInput(ctx, row.id),
              {
                stamped: true,
                uuid: lookup.uuid,
                resolvedBy: options.by,
                note: 'PAC lookup found the stamp',
              },
              ctx.config.temporal.taskQueue,
            );
            ctx.print(`${row.id}: stamped ${lookup.uuid} — resolved`, false);
          } else if (lookup.outcome === 'not_stamped') {
            // A single "not stamped" can be the PAC's post-stamp race; an operator confirms with `resolve --not-stamped`.
            ctx.print(
              `${row.id}: the PAC has no stamp (${lookup.code}); confirm with \`cfdi reconcile resolve ${row.id} --not-stamped --note TEXT\``,
              false,
            );
          } else {
            ctx.print(`${row.id}: no answer yet (${lookup.outcome})`, false);
          }
        } catch (error) {
          refuse(`${row.id}: ${(error as Error).message}`);
        }
      }
      if (!rows.length) ctx.print('Nothing awaits reconciliation.', false);
    });
}
