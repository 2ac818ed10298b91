import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError } from '@cfdi/config';
// The errors module alone, not the services' barrel: requiring the barrel anywhere in the CLI made every command
// load the whole module graph (PDF, PAC, Redis), since the bundle can then no longer drop the parts a command does not use.
import { AppError } from '@cfdi/services/src/errors';
import { CliContext } from './context';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Every top-level command, with the module that defines it. Only the module of the command being run is required
 * (a require() rather than an import(): the bundle keeps it lazy, and tsx's CommonJS loader runs it from sources), so
 * `cfdi --help` starts without the ORM, Temporal or PDF code (bench/README.md, "Production runtime").
 */
const COMMANDS: Record<string, { description: string; load: () => Register }> = {
  accounts: { description: 'Manage accounts', load: () => (require('./commands/accounts') as typeof import('./commands/accounts')).registerAccountsCommands },
  keys: { description: 'Manage API keys', load: () => (require('./commands/keys') as typeof import('./commands/keys')).registerKeysCommands },
  balance: { description: 'Balances and ledger corrections', load: () => (require('./commands/balance') as typeof import('./commands/balance')).registerBalanceCommands },
  db: { description: 'Database maintenance', load: () => (require('./commands/db') as typeof import('./commands/db')).registerDbCommands },
  ledger: { description: 'Money invariants', load: () => (require('./commands/ledger') as typeof import('./commands/ledger')).registerLedgerCommands },
  catalogs: {
    description: 'SAT catalogs (product and unit keys, usos CFDI, regímenes, …)',
    load: () => (require('./commands/catalogs') as typeof import('./commands/catalogs')).registerCatalogsCommands,
  },
  reconcile: {
    description: 'Documents whose PAC outcome was ambiguous (timeout, reset): decide stamped or not',
    load: () => (require('./commands/reconcile') as typeof import('./commands/reconcile')).registerReconcileCommands,
  },
  files: { description: "Stamped documents' XML, PDF and ZIP", load: () => (require('./commands/files') as typeof import('./commands/files')).registerFilesCommands },
  'console-users': {
    description: 'Console users (the sign-in of the OAuth consent page and the admin console)',
    load: () => (require('./commands/console-users') as typeof import('./commands/console-users')).registerConsoleUsersCommands,
  },
  doctor: {
    description: 'Check every dependency and say what is wrong and how to fix it',
    load: () => (require('./commands/doctor') as typeof import('./commands/doctor')).registerDoctorCommand,
  },
};

/** The `cfdi` operators' command. One boundary prints errors by type and sets the exit code. */
async function main(argv: string[]): Promise<void> {
  const ctx = new CliContext();
  const program = new Command('cfdi').description('Operate the CFDI stamping platform').showHelpAfterError().exitOverride();
  const invoked = argv[2];
  try {
    for (const [name, { description, load }] of Object.entries(COMMANDS)) {
      if (name === invoked) load()(program, ctx);
      else program.command(name).description(description);
    }
    program.commands.find((command) => command.name() === invoked)?.description(COMMANDS[invoked!]!.description);
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
