import { Command } from 'commander';
import { EXIT_CODES_HELP } from './failures';
import { version } from '../package.json';

/** Every top-level command and its one-line description: all `cfdi --help` needs, with no command loaded. */
export const COMMAND_DESCRIPTIONS: Record<string, string> = {
  accounts: 'Manage accounts',
  keys: 'Manage API keys',
  balance: 'Balances and ledger corrections',
  db: 'Database maintenance',
  ledger: 'Money invariants',
  catalogs: 'SAT catalogs (product and unit keys, usos CFDI, regímenes, …)',
  reconcile: 'Documents whose PAC outcome was ambiguous (timeout, reset): decide stamped or not',
  files: "Stamped documents' XML, PDF and ZIP",
  emails: "Documents' e-mails: send one again",
  'console-users': 'Console users (the sign-in of the OAuth consent page and the admin console)',
  'exchange-rates':
    "Published exchange rates: the centre of a foreign currency's TipoCambio band (CFDI40118)",
  'master-key': 'Rotate MASTER_KEY: re-encrypt every stored secret under the current key',
  doctor: 'Check every dependency and say what is wrong and how to fix it',
};

/**
 * The `cfdi` program without its commands' definitions. With `json`, Commander's own error text is withheld: the
 * boundary prints the error as JSON instead.
 */
export function createProgram(json: boolean): Command {
  const program = new Command('cfdi')
    .description('Operate the CFDI stamping platform')
    .version(version, '-V, --version', 'print the version')
    .showHelpAfterError(!json)
    .exitOverride()
    .addHelpText('after', EXIT_CODES_HELP);
  if (json) program.configureOutput({ outputError: () => undefined });
  return program;
}

/** `--json` anywhere among the arguments asks for machine-readable output, errors included. */
export function wantsJson(argv: string[]): boolean {
  return argv.slice(2).includes('--json');
}
