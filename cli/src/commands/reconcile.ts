import os from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { createPacClients, listAwaitingReconciliation, loadDocumentById, reconciliationHistory, reconciliationRefusal, type DocumentRow } from '@cfdi/services';
import { signalReconciliation } from '@cfdi/workflows/client';
import type { CliContext } from '../context';
import { refuse } from '../refuse';

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const summary = (row: DocumentRow) =>
  `${row.id}  ${row.livemode ? 'live' : 'test'}  ${row.account_id}  ${row.serie}-${row.folio}  total ${row.total}  since ${row.updated_at}\n    ${row.failure_detail ?? ''}`;

/** The stamp workflow's input, for a decision that has to start the workflow (see signalReconciliation). */
const stampInput = (ctx: CliContext, documentId: string) => ({ documentId, reconciliation: ctx.config.reconciliation });

export function registerReconcileCommands(program: Command, ctx: CliContext): void {
  const reconcile = program.command('reconcile');

  reconcile
    .command('list')
    .description('Documents awaiting reconciliation (their timbre stays reserved until decided)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rows = await listAwaitingReconciliation(await ctx.em());
      if (options.json) return ctx.print(rows.map((r) => ({ id: r.id, accountId: r.account_id, livemode: r.livemode, detail: r.failure_detail })), true);
      if (!rows.length) return ctx.print('Nothing awaits reconciliation.', false);
      for (const row of rows) ctx.print(summary(row), false);
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
        id: row.id, status: row.status, needsReconciliation: row.needs_reconciliation, uuid: row.uuid, detail: row.failure_detail,
        reservation: { id: row.reservation_id, state: row.reservation_state }, resolutions: history,
      };
      if (options.json) return ctx.print(view, true);
      ctx.print(`${summary(row)}\n  status ${row.status}${row.uuid ? ` uuid ${row.uuid}` : ''}  reservation ${row.reservation_id} (${row.reservation_state})`, false);
      for (const h of history) ctx.print(`  ${h.created_at}  ${h.resolution}${h.uuid ? ` ${h.uuid}` : ''} by ${h.resolved_by}${h.note ? `: ${h.note}` : ''}`, false);
    });

  reconcile
    .command('resolve <documentId>')
    .description('Record the decision: --stamped --uuid UUID (confirms the timbre) or --not-stamped (refunds it)')
    .option('--stamped', 'the PAC stamped it')
    .option('--uuid <uuid>', 'UUID of the stamp (with --stamped)', (raw) => {
      if (!UUID.test(raw)) throw new InvalidArgumentError('expected a UUID (8-4-4-4-12 hex)');
      return raw.toUpperCase();
    })
    .option('--without-xml', 'with --stamped: record the UUID even though the PAC has no copy of the stamp (no XML, no files)')
    .option('--not-stamped', 'the PAC never stamped it')
    .option('--note <text>', 'why (kept with the resolution)')
    .option('--by <name>', 'who decides', process.env.USER ?? os.userInfo().username)
    .action(async (documentId: string, options: { stamped?: boolean; notStamped?: boolean; uuid?: string; withoutXml?: boolean; note?: string; by: string }) => {
      if (Boolean(options.stamped) === Boolean(options.notStamped)) return refuse('give exactly one of --stamped or --not-stamped');
      if (options.stamped && !options.uuid) return refuse('--stamped needs --uuid');
      if (options.notStamped && options.uuid) return refuse('--uuid goes with --stamped only');
      const decision = { stamped: Boolean(options.stamped), uuid: options.uuid, withoutXml: options.withoutXml };
      const pac = createPacClients(ctx.config);
      const refusal = await reconciliationRefusal(await ctx.em(), pac, documentId, decision).finally(() => pac.close());
      if (refusal) return refuse(refusal.reason === 'pac_disagrees' ? `${refusal.message} Check the UUID, or repeat with --without-xml.` : refusal.message);
      await signalReconciliation(await ctx.temporal(), stampInput(ctx, documentId), {
        stamped: Boolean(options.stamped), ...(options.uuid ? { uuid: options.uuid } : {}), resolvedBy: options.by, ...(options.note ? { note: options.note } : {}),
      }, ctx.config.temporal.taskQueue);
      ctx.print(`Decision sent to the stamp workflow of ${documentId}: ${options.stamped ? `stamped ${options.uuid}` : 'not stamped'}.`, false);
    });

  reconcile
    .command('auto')
    .description('Ask the PAC now about every pending document; resolve those it reports stamped')
    .option('--by <name>', 'recorded as the resolver', 'cfdi reconcile auto')
    .action(async (options: { by: string }) => {
      const rows = await listAwaitingReconciliation(await ctx.em());
      const pac = createPacClients(ctx.config);
      try {
        for (const row of rows) {
          // One document's failure (Temporal or the PAC unreachable for it) does not stop the others; exit code 1 says so.
          try {
            const lookup = await pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: row.id });
            if (lookup.outcome === 'stamped') {
              await signalReconciliation(await ctx.temporal(), stampInput(ctx, row.id), {
                stamped: true, uuid: lookup.uuid, resolvedBy: options.by, note: 'PAC lookup found the stamp',
              }, ctx.config.temporal.taskQueue);
              ctx.print(`${row.id}: stamped ${lookup.uuid} — resolved`, false);
            } else if (lookup.outcome === 'not_stamped') {
              // A single "not stamped" can be the PAC's post-stamp race; an operator confirms with `resolve --not-stamped`.
              ctx.print(`${row.id}: the PAC has no stamp (${lookup.code}); confirm with \`cfdi reconcile resolve ${row.id} --not-stamped\``, false);
            } else {
              ctx.print(`${row.id}: no answer yet (${lookup.outcome})`, false);
            }
          } catch (error) {
            refuse(`${row.id}: ${(error as Error).message}`);
          }
        }
      } finally {
        pac.close();
      }
      if (!rows.length) ctx.print('Nothing awaits reconciliation.', false);
    });
}
