import type { Command } from 'commander';
import { createAccount, updateAccountLimits } from '@cfdi/services';
import type { CliContext } from '../context';
import { parseIntOption } from '../options';

export function registerAccountsCommands(program: Command, ctx: CliContext): void {
  const accounts = program.command('accounts');

  accounts
    .command('create')
    .description('Create an account with one test and one live API key (shown once)')
    .requiredOption('--name <name>', 'account name')
    .option(
      '--rate-limit <perMinute>',
      'requests per minute (default from RATE_LIMIT_PER_MINUTE)',
      parseIntOption,
    )
    .option('--monthly-cap <timbres>', 'timbres per calendar month', parseIntOption)
    .option('--json', 'print {"accountId","testKey","liveKey"} as JSON')
    .action(async (options: { name: string; rateLimit?: number; monthlyCap?: number; json?: boolean }) => {
      const created = await createAccount(await ctx.em(), ctx.config, {
        name: options.name,
        rateLimitPerMinute: options.rateLimit ?? null,
        monthlyCap: options.monthlyCap ?? null,
      });
      if (options.json) return ctx.print(created, true);
      ctx.print(
        `Account ${created.accountId}\n  test key: ${created.testKey}\n  live key: ${created.liveKey}\nKeys are shown only once.`,
        false,
      );
    });

  accounts
    .command('limits <accountId>')
    .description('Set the per-minute rate limit or the monthly timbre cap ("none" clears it)')
    .option('--rate-limit <perMinute|none>', 'requests per minute')
    .option('--monthly-cap <timbres|none>', 'timbres per month')
    .action(async (accountId: string, options: { rateLimit?: string; monthlyCap?: string }) => {
      const value = (raw: string | undefined) =>
        raw === undefined ? undefined : raw === 'none' ? null : parseIntOption(raw);
      await updateAccountLimits(await ctx.em(), accountId, {
        rateLimitPerMinute: value(options.rateLimit),
        monthlyCap: value(options.monthlyCap),
      });
      ctx.print(`Limits of ${accountId} updated.`, false);
    });
}
