import { CliContext } from './context';
import { describeFailure, printedByCommander, printFailure, setJsonErrors } from './failures';
import { COMMAND_DESCRIPTIONS, createProgram, wantsJson } from './program';

type Register = (program: import('commander').Command, ctx: CliContext) => void;

/** Each command's module, required only when that command runs. */
const REGISTER: Record<string, () => Register> = {
  accounts: () =>
    (require('./commands/accounts') as typeof import('./commands/accounts')).registerAccountsCommands,
  keys: () => (require('./commands/keys') as typeof import('./commands/keys')).registerKeysCommands,
  balance: () =>
    (require('./commands/balance') as typeof import('./commands/balance')).registerBalanceCommands,
  db: () => (require('./commands/db') as typeof import('./commands/db')).registerDbCommands,
  ledger: () => (require('./commands/ledger') as typeof import('./commands/ledger')).registerLedgerCommands,
  catalogs: () =>
    (require('./commands/catalogs') as typeof import('./commands/catalogs')).registerCatalogsCommands,
  reconcile: () =>
    (require('./commands/reconcile') as typeof import('./commands/reconcile')).registerReconcileCommands,
  files: () => (require('./commands/files') as typeof import('./commands/files')).registerFilesCommands,
  emails: () => (require('./commands/emails') as typeof import('./commands/emails')).registerEmailsCommands,
  'console-users': () =>
    (require('./commands/console-users') as typeof import('./commands/console-users'))
      .registerConsoleUsersCommands,
  'exchange-rates': () =>
    (require('./commands/exchange-rates') as typeof import('./commands/exchange-rates'))
      .registerExchangeRatesCommands,
  'master-key': () =>
    (require('./commands/master-key') as typeof import('./commands/master-key')).registerMasterKeyCommands,
  doctor: () => (require('./commands/doctor') as typeof import('./commands/doctor')).registerDoctorCommand,
};

/**
 * Runs one command. The boundary: whatever it throws becomes one line (or one JSON object with --json) on stderr
 * and a documented exit code (failures.ts); CFDI_DEBUG=1 adds the stack trace.
 */
export async function runCommand(argv: string[], name: string): Promise<void> {
  const json = wantsJson(argv);
  setJsonErrors(json);
  const ctx = new CliContext();
  const program = createProgram(json);
  try {
    REGISTER[name]!()(program, ctx);
    program.commands.find((command) => command.name() === name)?.description(COMMAND_DESCRIPTIONS[name]!);
    await program.parseAsync(argv);
  } catch (error) {
    const failure = describeFailure(error, ctx.loadedConfig);
    // Commander printed its own usage errors (with the help) unless the output is JSON.
    if (json || !printedByCommander(error)) printFailure(failure, json);
    if (process.env.CFDI_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
    process.exitCode = failure.exitCode;
  } finally {
    await ctx.close().catch(() => undefined);
  }
}
