import { CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, type Config } from '@cfdi/config';
// The errors module alone, not the services' barrel: the barrel would load every service (Redis, PDF, PAC) at start.
import { AppError } from '@cfdi/services/src/errors';

/**
 * `cfdi`'s exit codes (docs/api-guide.md, "CLI reference"; `cfdi --help`). Small distinct numbers a script can branch on, in the spirit
 * of sysexits.h but below 64 so that they survive shells and process managers that fold large codes.
 */
export const EXIT = {
  ok: 0,
  /** Refused (invalid value, business rule), a check that found problems, or an unexpected error. */
  failed: 1,
  /** Unknown command or option, missing or malformed argument. */
  usage: 2,
  notFound: 3,
  /** The thing exists already or is in a state that forbids the change. */
  conflict: 4,
  /** PostgreSQL, Redis or Temporal cannot be reached. */
  unavailable: 5,
  /** The environment's configuration is invalid. */
  config: 6,
} as const;

export const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  refused or failed (the message says why; \`doctor\` and \`ledger verify\` found problems)
  2  usage: unknown command or option, missing or malformed argument
  3  not found (account, key, merchant, document)
  4  conflict: exists already, or its state forbids the change
  5  a dependency is down (PostgreSQL, Redis, Temporal): see \`cfdi doctor\`
  6  invalid configuration (environment variables)

With --json, an error is one JSON object on stderr: {"error": {"code", "message", "hint"}}.`;

/** What went wrong, in one line, and what to do about it. */
export interface Failure {
  code: string;
  message: string;
  hint?: string;
  exitCode: number;
}

/** A dependency the command needs did not answer or refused the connection. */
export class DependencyDownError extends Error {
  constructor(
    readonly dependency: string,
    readonly address: string,
    cause: unknown,
    message = `cannot reach ${dependency} at ${address}`,
    readonly hint = 'is it running? (cfdi doctor)',
  ) {
    super(message, { cause });
    this.name = 'DependencyDownError';
  }
}

/** Socket-level codes that mean "nothing answers there", wherever they come from (pg, ioredis, gRPC). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ECONNRESET',
]);

/** The error and its causes (MikroORM and Temporal wrap the socket error), outermost first. */
function chain(error: unknown): unknown[] {
  const errors: unknown[] = [];
  for (let e = error; e && errors.length < 10; e = (e as { cause?: unknown }).cause) {
    errors.push(e);
    if (e instanceof AggregateError) errors.push(...e.errors);
  }
  return errors;
}

/** A connection error about the configured PostgreSQL server, said in its terms (pg's SQLSTATE codes). */
function postgresFailure(error: unknown, config: Readonly<Config> | null): DependencyDownError | null {
  if (!config) return null;
  const url = new URL(config.databaseUrl);
  const address = `${url.hostname}:${url.port || 5432}`;
  for (const e of chain(error)) {
    const { code, message } = e as { code?: string; message?: string };
    if (code === '3D000')
      return new DependencyDownError(
        'PostgreSQL',
        address,
        e,
        `database "${url.pathname.slice(1)}" does not exist on PostgreSQL at ${address}`,
        'create it with `npx cfdi db migrate` (or `npm run up`)',
      );
    if (code?.startsWith('28'))
      return new DependencyDownError(
        'PostgreSQL',
        address,
        e,
        `PostgreSQL at ${address} refused the credentials of DATABASE_URL`,
        'check the user and password in DATABASE_URL',
      );
    // Unreachable, too many clients (53…), starting or shutting down (57P0…), or the pool gave up waiting.
    if (
      (code && (UNREACHABLE.has(code) || /^(53|57P0)/.test(code))) ||
      (message && /Timeout acquiring a connection|Connection terminated/.test(message))
    )
      return new DependencyDownError('PostgreSQL', address, e);
  }
  return null;
}

function appFailure(error: AppError): Failure {
  const fields = error.extra.errors?.length
    ? ` (${error.extra.errors.map((e) => `${e.path}: ${e.message}`).join('; ')})`
    : '';
  const message = `${error.message}${fields}`;
  if (error.status === 404) return { code: error.code, message, exitCode: EXIT.notFound };
  if (error.status === 409) return { code: error.code, message, exitCode: EXIT.conflict };
  if (error.status === 503) return { code: error.code, message, exitCode: EXIT.unavailable };
  return { code: error.code, message, exitCode: EXIT.failed };
}

/**
 * Turns anything a command throws into one line and an exit code. `config` is the loaded configuration, when the
 * command got that far: it names the database a connection error is about.
 */
export function describeFailure(error: unknown, config: Readonly<Config> | null): Failure {
  if (error instanceof InvalidArgumentError)
    return { code: 'usage', message: error.message, exitCode: EXIT.usage };
  if (error instanceof CommanderError)
    return {
      code: error.code.replace(/^commander\./, 'usage.'),
      message: error.message.replace(/^error: /, ''),
      hint: 'see `cfdi <command> --help`',
      exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage,
    };
  if (error instanceof ConfigError)
    return {
      code: 'invalid_configuration',
      message: error.problems.join('; '),
      hint: 'fix these environment variables (.env.example lists each one)',
      exitCode: EXIT.config,
    };
  if (error instanceof AppError) return appFailure(error);
  const down = error instanceof DependencyDownError ? error : postgresFailure(error, config);
  if (down)
    return {
      code: 'dependency_unavailable',
      message: down.message,
      hint: down.hint,
      exitCode: EXIT.unavailable,
    };
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return {
    code: 'internal_error',
    message,
    hint: 'CFDI_DEBUG=1 prints the stack trace',
    exitCode: EXIT.failed,
  };
}

let jsonErrors = false;

/** Set once by the boundary when the command was given --json. */
export function setJsonErrors(json: boolean): void {
  jsonErrors = json;
}

/**
 * Whether Commander printed the error already: it prints what it finds while parsing (unknown option, missing
 * argument, a value its parser refused) but not an InvalidArgumentError an action throws itself.
 */
export function printedByCommander(error: unknown): boolean {
  return error instanceof CommanderError && !(error instanceof InvalidArgumentError);
}

/** One line on stderr (or one JSON object under --json). */
export function printFailure(failure: Omit<Failure, 'exitCode'>, json = jsonErrors): void {
  const { code, message, hint } = failure;
  process.stderr.write(
    json
      ? `${JSON.stringify({ error: { code, message, ...(hint ? { hint } : {}) } })}\n`
      : `error: ${message}${hint ? ` — ${hint}` : ''}\n`,
  );
}
