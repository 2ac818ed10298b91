import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError } from '@cfdi/config';
import { AppError } from '@cfdi/services';
import { CliContext } from './context';
import { registerAccountsCommands } from './commands/accounts';
import { registerKeysCommands } from './commands/keys';
import { registerBalanceCommands } from './commands/balance';
import { registerDoctorCommand } from './commands/doctor';
import { registerDbCommands } from './commands/db';
import { registerLedgerCommands } from './commands/ledger';
import { registerCatalogsCommands } from './commands/catalogs';
import { registerReconcileCommands } from './commands/reconcile';
import { registerFilesCommands } from './commands/files';
import { registerConsoleUsersCommands } from './commands/console-users';

/** The `cfdi` operators' command. One boundary prints errors by type and sets the exit code. */
async function main(argv: string[]): Promise<void> {
  const ctx = new CliContext();
  const program = new Command('cfdi').description('Operate the CFDI stamping platform').showHelpAfterError().exitOverride();
  registerAccountsCommands(program, ctx);
  registerKeysCommands(program, ctx);
  registerBalanceCommands(program, ctx);
  registerDbCommands(program, ctx);
  registerLedgerCommands(program, ctx);
  registerCatalogsCommands(program, ctx);
  registerReconcileCommands(program, ctx);
  registerFilesCommands(program, ctx);
  registerConsoleUsersCommands(program, ctx);
  registerDoctorCommand(program, ctx);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = reportError(error);
  } finally {
    await ctx.close();
  }
}

function reportError(error: unknown): number {
  // Commander prints what it finds while parsing; an InvalidArgumentError thrown by an action's own parsing is ours to print.
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof AppError) {
    const fields = error.extra.errors?.map((e) => `\n  ${e.path}: ${e.message}`).join('') ?? '';
    process.stderr.write(`error (${error.code}): ${error.message}${fields}\n`);
  } else process.stderr.write(`error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  return 1;
}

void main(process.argv);
