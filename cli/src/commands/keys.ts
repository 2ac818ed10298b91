import type { Command } from 'commander';
// Modules, not the services' barrel: the barrel loads every service (Redis client included) at start.
import { requireAccount } from '@cfdi/services/src/accounts';
import { createApiKey, listApiKeys, revokeApiKey } from '@cfdi/services/src/api-keys';
import type { CliContext } from '../context';
import { modeOption } from '../options';

export function registerKeysCommands(program: Command, ctx: CliContext): void {
  const keys = program.command('keys');

  keys
    .command('create <accountId>')
    .description('Create an API key (the secret is shown once)')
    .addOption(modeOption('key mode'))
    .option('--merchant <id...>', 'restrict the key to these merchants')
    .option('--note <text>', 'what the key is for')
    .option('--json', 'print JSON')
    .action(
      async (
        accountId: string,
        options: { mode: boolean; merchant?: string[]; note?: string; json?: boolean },
      ) => {
        const em = await ctx.em();
        await requireAccount(em, accountId);
        // The services check the merchants (the account's, in that mode); the CLI has no maker limits.
        const { key, secret } = await createApiKey(em, {
          accountId,
          livemode: options.mode,
          merchantIds: options.merchant ?? null,
          note: options.note ?? null,
        });
        if (options.json) return ctx.print({ ...key, secret }, true);
        ctx.print(`Key ${key.id}: ${secret}\nShown only once.`, false);
      },
    );

  keys
    .command('list <accountId>')
    .description('List the keys of an account (secrets are never shown)')
    .option('--json', 'print JSON')
    .action(async (accountId: string, options: { json?: boolean }) => {
      const em = await ctx.em();
      await requireAccount(em, accountId);
      const list = await listApiKeys(em, accountId);
      if (options.json) return ctx.print(list, true);
      for (const key of list) {
        const flags = [
          key.livemode ? 'live' : 'test',
          key.revokedAt ? `revoked ${key.revokedAt}` : 'active',
          key.merchantIds ? `merchants: ${key.merchantIds.join(',')}` : 'all merchants',
        ];
        ctx.print(
          `${key.id}  ${key.displayPrefix}…  ${flags.join('  ')}${key.note ? `  (${key.note})` : ''}`,
          false,
        );
      }
    });

  keys
    .command('revoke <accountId> <keyId>')
    .description('Revoke a key at once')
    .action(async (accountId: string, keyId: string) => {
      const key = await revokeApiKey(await ctx.em(), accountId, keyId);
      ctx.print(`Key ${key.id} revoked at ${key.revokedAt}.`, false);
    });
}
