import { InvalidArgumentError, type Command } from 'commander';
// Modules, not the services' barrel: the barrel loads every service (Redis client included) at start.
import { requireAccount } from '@cfdi/services/src/accounts';
import { adjustBalance, retrieveBalance } from '@cfdi/services/src/ledger';
import type { CliContext } from '../context';
import { modeOption, parseIntOption } from '../options';

export function registerBalanceCommands(program: Command, ctx: CliContext): void {
  const balance = program.command('balance');

  balance
    .command('show <accountId>')
    .addOption(modeOption('which balance'))
    .option('--json', 'print JSON')
    .action(async (accountId: string, options: { mode: boolean; json?: boolean }) => {
      const em = await ctx.em();
      await requireAccount(em, accountId);
      const view = await retrieveBalance(em, ctx.config, { accountId, livemode: options.mode });
      if (options.json) return ctx.print(view, true);
      ctx.print(
        `${options.mode ? 'live' : 'test'}: ${view.balanceCentavos} centavos (${view.timbresRemaining} timbres at ${view.pricePerTimbreCentavos})`,
        false,
      );
    });

  balance
    .command('adjust <accountId> <deltaCentavos>')
    .description('Record an operator correction (negative to debit); a test-mode top-up with --recharge')
    .requiredOption('--note <text>', 'why; kept in the ledger')
    .addOption(modeOption('which balance'))
    .option('--recharge', 'free test-mode top-up instead of an adjustment')
    .option('--json', 'print JSON')
    .action(
      async (
        accountId: string,
        delta: string,
        options: { note: string; mode: boolean; recharge?: boolean; json?: boolean },
      ) => {
        const deltaCentavos = parseIntOption(delta);
        if (deltaCentavos === 0) throw new InvalidArgumentError('a delta of 0 centavos changes nothing.');
        const em = await ctx.em();
        await requireAccount(em, accountId);
        const entry = await adjustBalance(
          em,
          { accountId, livemode: options.mode },
          {
            type: options.recharge ? 'recharge' : 'adjustment',
            deltaCentavos,
            note: options.note,
          },
        );
        if (options.json) return ctx.print(entry, true);
        ctx.print(
          `${entry.id}: ${entry.deltaCentavos} → balance ${entry.balanceAfterCentavos} centavos`,
          false,
        );
      },
    );
}
