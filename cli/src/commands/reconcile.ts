import os from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { createPacClients, listAwaitingReconciliation, loadDocumentById, reconciliationHistory, type DocumentRow } from '@cfdi/services';
import { signalReconciliation } from '@cfdi/workflows/client';
import type { CliContext } from '../context';

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const awaiting = (row: DocumentRow) => row.needs_reconciliation && row.status === 'stamping';
const summary = (row: DocumentRow) =>
  `${row.id}  ${row.livemode ? 'live' : 'test'}  ${row.account_id}  ${row.serie}-${row.folio}  total ${row.total}  since ${row.updated_at}\n    ${row.failure_detail ?? ''}`;

export function registerReconcileCommands(program: Command, ctx: CliContext): void {
  const reconcile = program.command('reconcile').description('Documents whose PAC outcome was ambiguous (timeout, reset): decide stamped or not');

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
    .option('--not-stamped', 'the PAC never stamped it')
    .option('--note <text>', 'why (kept with the resolution)')
    .option('--by <name>', 'who decides', process.env.USER ?? os.userInfo().username)
    .action(async (documentId: string, options: { stamped?: boolean; notStamped?: boolean; uuid?: string; note?: string; by: string }) => {
      if (Boolean(options.stamped) === Boolean(options.notStamped)) throw new InvalidArgumentError('give exactly one of --stamped or --not-stamped');
      if (options.stamped && !options.uuid) throw new InvalidArgumentError('--stamped needs --uuid');
      const row = await loadDocumentById(await ctx.em(), documentId);
      if (!awaiting(row)) {
        process.stderr.write(`${documentId} is not awaiting reconciliation (status ${row.status}${row.needs_reconciliation ? '' : ', no ambiguous failure'}); nothing done.\n`);
        process.exitCode = 1;
        return;
      }
      await signalReconciliation(await ctx.temporal(), documentId, {
        stamped: Boolean(options.stamped), ...(options.uuid ? { uuid: options.uuid } : {}), resolvedBy: options.by, ...(options.note ? { note: options.note } : {}),
      });
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
          const lookup = await pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: row.id });
          if (lookup.outcome === 'stamped') {
            await signalReconciliation(await ctx.temporal(), row.id, { stamped: true, uuid: lookup.uuid, resolvedBy: options.by, note: 'PAC lookup found the stamp' });
            ctx.print(`${row.id}: stamped ${lookup.uuid} — resolved`, false);
          } else if (lookup.outcome === 'not_stamped') {
            // A single "not stamped" can be the PAC's post-stamp race; an operator confirms with `resolve --not-stamped`.
            ctx.print(`${row.id}: the PAC has no stamp (${lookup.code}); confirm with \`cfdi reconcile resolve ${row.id} --not-stamped\``, false);
          } else {
            ctx.print(`${row.id}: no answer yet (${lookup.outcome})`, false);
          }
        }
      } finally {
        pac.close();
      }
      if (!rows.length) ctx.print('Nothing awaits reconciliation.', false);
    });
}
