import type { Command } from 'commander';
import { auditLedger } from '@cfdi/services';
import type { CliContext } from '../context';

export function registerLedgerCommands(program: Command, ctx: CliContext): void {
  program
    .command('ledger')
    .command('verify')
    .description('Run the ledger audit now (the same check the periodic Temporal schedule runs)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      const report = await auditLedger(await ctx.em());
      if (options.json) ctx.print(report, true);
      else {
        ctx.print(
          `${report.balancesChecked} balances checked, ${report.violations.length} violation(s).`,
          false,
        );
        for (const v of report.violations)
          ctx.print(`  ✗ ${v.accountId} ${v.livemode ? 'live' : 'test'} ${v.rule}: ${v.detail}`, false);
      }
      if (report.violations.length) process.exitCode = 1;
    });
}
