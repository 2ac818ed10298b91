import type { Command } from 'commander';
import { auditLedger } from '@cfdi/services';
import type { CliContext } from '../context';

export function registerLedgerCommands(program: Command, ctx: CliContext): void {
  program
    .command('ledger')
    .command('verify')
    .description(
      'Run the ledger audit now (the checks the periodic Temporal schedule runs); read-only, checkpoints untouched',
    )
    .option(
      '--incremental',
      "only what changed since each balance's last clean scheduled audit (default: everything)",
    )
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean; incremental?: boolean }) => {
      const mode = options.incremental ? 'incremental' : 'full';
      const { report } = await auditLedger(await ctx.em(), { mode });
      if (options.json) ctx.print(report, true);
      else {
        ctx.print(
          `${report.mode} audit: ${report.balancesChecked} balances and ${report.entriesChecked} entries checked, ${report.violations.length} violation(s).`,
          false,
        );
        for (const v of report.violations)
          ctx.print(`  ✗ ${v.accountId} ${v.livemode ? 'live' : 'test'} ${v.rule}: ${v.detail}`, false);
      }
      if (report.violations.length) process.exitCode = 1;
    });
}
