import { InvalidArgumentError, type Command } from 'commander';
import {
  consoleUserIdByEmail,
  createConsoleUser,
  disableConsoleUser,
  generatePassword,
  listConsoleUsers,
  parseConsoleRole,
  resetConsoleUserPassword,
  updateConsoleUser,
  type ConsoleRole,
  type ConsoleUserView,
} from '@cfdi/services';
import type { CliContext } from '../context';
import { parseMode } from '../options';

/** The services' role rule, its refusal said as a usage error (exit 2) like any other bad option value. */
function parseRole(raw: string): ConsoleRole {
  try {
    return parseConsoleRole(raw);
  } catch (error) {
    throw new InvalidArgumentError(`role ${(error as Error).message}.`);
  }
}

/** `both` lifts a mode limit; commander would store a parsed null as '', so it stays a word until the action. */
function parseModeOrBoth(raw: string): boolean | 'both' {
  return raw === 'both' ? 'both' : parseMode(raw);
}

/** The password from stdin (first line) with --password-stdin, else a generated one that is printed once. */
async function passwordFrom(options: {
  passwordStdin?: boolean;
}): Promise<{ password: string; generated: boolean }> {
  if (!options.passwordStdin) return { password: generatePassword(), generated: true };
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return { password: text.split(/\r?\n/)[0] ?? '', generated: false };
}

const describe = (user: ConsoleUserView) =>
  [
    user.id,
    user.email,
    user.role,
    user.accountId ?? 'platform',
    user.livemode === null ? 'both modes' : user.livemode ? 'live only' : 'test only',
    user.merchantIds ? `merchants: ${user.merchantIds.join(',')}` : 'all merchants',
    user.disabledAt ? `disabled ${user.disabledAt}` : 'active',
  ].join('  ');

/** Console users: who signs in to the console and to the OAuth consent page of the MCP tool server. */
export function registerConsoleUsersCommands(program: Command, ctx: CliContext): void {
  const users = program
    .command('console-users')
    .description('Manage console users (they also approve OAuth access for MCP clients)');

  users
    .command('create <email>')
    .description('Create a console user; without --password-stdin a password is generated and shown once')
    .requiredOption('--role <admin|operator|finance>', 'what the user may do', parseRole)
    .option('--account <id>', 'the account the user acts for (required for finance)')
    .option('--mode <test|live>', 'limit the user to one mode', parseMode)
    .option('--merchant <id...>', 'limit the user to these merchants of the account')
    .option('--password-stdin', 'read the password (at least 12 characters) from the first line of stdin')
    .option('--json', 'print JSON')
    .action(
      async (
        email: string,
        options: {
          role: ConsoleRole;
          account?: string;
          mode?: boolean;
          merchant?: string[];
          passwordStdin?: boolean;
          json?: boolean;
        },
      ) => {
        const { password, generated } = await passwordFrom(options);
        const user = await createConsoleUser(await ctx.em(), {
          email,
          password,
          role: options.role,
          accountId: options.account ?? null,
          livemode: options.mode ?? null,
          merchantIds: options.merchant ?? null,
        });
        if (options.json) return ctx.print(generated ? { ...user, password } : user, true);
        ctx.print(
          `Console user ${user.id} (${user.email}) created.${generated ? `\nPassword: ${password}\nShown only once.` : ''}`,
          false,
        );
      },
    );

  users
    .command('list')
    .description('List console users (passwords are never shown)')
    .option('--account <id>', 'only the users of this account')
    .option('--json', 'print JSON')
    .action(async (options: { account?: string; json?: boolean }) => {
      const list = await listConsoleUsers(await ctx.em(), { accountId: options.account });
      if (options.json) return ctx.print(list, true);
      for (const user of list) ctx.print(describe(user), false);
    });

  users
    .command('update <email>')
    .description(
      'Change the role, mode or merchant limit; takes effect at once in open console sessions, and a mode or merchant change revokes their OAuth authorizations',
    )
    .option('--role <admin|operator|finance>', 'what the user may do', parseRole)
    .option('--mode <test|live|both>', 'limit the user to one mode, or lift the limit', parseModeOrBoth)
    .option('--merchant <id...>', "limit the user to these merchants of the user's account")
    .option('--all-merchants', 'lift the merchant limit')
    .option('--json', 'print JSON')
    .action(
      async (
        email: string,
        options: {
          role?: ConsoleRole;
          mode?: boolean | 'both';
          merchant?: string[];
          allMerchants?: boolean;
          json?: boolean;
        },
      ) => {
        if (options.merchant && options.allMerchants)
          throw new InvalidArgumentError('--merchant and --all-merchants exclude each other.');
        const em = await ctx.em();
        const { user, changes } = await updateConsoleUser(em, await consoleUserIdByEmail(em, email), {
          role: options.role,
          livemode: options.mode === 'both' ? null : options.mode,
          merchantIds: options.allMerchants ? null : options.merchant,
        });
        if (options.json) return ctx.print(user, true);
        ctx.print(
          Object.keys(changes).length
            ? describe(user)
            : `${describe(user)}
(nothing changed)`,
          false,
        );
      },
    );

  users
    .command('disable <email>')
    .description('Disable a user at once; the OAuth authorizations they approved are revoked too')
    .action(async (email: string) => {
      const user = await disableConsoleUser(await ctx.em(), email);
      ctx.print(`Console user ${user.email} disabled at ${user.disabledAt}.`, false);
    });

  users
    .command('reset-password <email>')
    .description(
      'Set a new password (generated and shown once unless --password-stdin); lifts a sign-in lock-out',
    )
    .option('--password-stdin', 'read the password (at least 12 characters) from the first line of stdin')
    .action(async (email: string, options: { passwordStdin?: boolean }) => {
      const { password, generated } = await passwordFrom(options);
      const user = await resetConsoleUserPassword(await ctx.em(), email, password);
      ctx.print(
        `Password of ${user.email} reset.${generated ? `\nPassword: ${password}\nShown only once.` : ''}`,
        false,
      );
    });
}
