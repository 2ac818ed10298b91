import { MikroORM, PostgreSqlDriver, PostgreSqlPlatform, type Configuration, type Options } from '@mikro-orm/postgresql';
import type { Migrator } from '@mikro-orm/migrations';
import { Client } from 'pg';
import { entities } from './entities';

export type Orm = MikroORM;

/**
 * PostgreSQL's string literal for a value, as `pg`'s `escapeLiteral` writes it (quotes and backslashes doubled, E''
 * when there is a backslash), in two replaces. MikroORM inlines every parameter into the statement's text with it, and
 * pg's version appends one character at a time: a stamped 500-item CFDI (~350 KB) cost ~10 MB of garbage and
 * milliseconds of CPU per statement that carries it.
 */
export function escapeLiteral(value: string): string {
  const body = value.replaceAll("'", "''");
  return value.includes('\\') ? ` E'${body.replaceAll('\\', '\\\\')}'` : `'${body}'`;
}

class Platform extends PostgreSqlPlatform {
  override escape(value: unknown): string {
    return typeof value === 'string' ? escapeLiteral(value) : super.escape(value);
  }
}

/** MikroORM's PostgreSQL driver with the platform above (the driver builds its platform in its constructor). */
class Driver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { platform: PostgreSqlPlatform }).platform = new Platform();
  }
}

export function ormOptions(databaseUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    driver: Driver,
    clientUrl: databaseUrl,
    entities,
    discovery: { warnWhenNoEntities: false },
    // propagateCreateError: fail fast while PostgreSQL is down instead of queueing until the acquire timeout.
    pool: { min: 0, max: 10, acquireTimeoutMillis: 10_000, propagateCreateError: true } as Options['pool'],
    debug: false,
    // Connect lazily: a process must start (and report itself degraded on /ready) while PostgreSQL is down.
    connect: false,
    allowGlobalContext: false,
    ...overrides,
  };
}

/** Opens the connection pool. Callers own the instance and must `close()` it. */
export async function createOrm(databaseUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, overrides));
}

/**
 * The migrator, required on demand: umzug and the migrations cost ~100 ms of start-up that a process which does not
 * migrate (a CLI command, an API replica) should not pay.
 */
function migratorOf(orm: Orm): Migrator {
  const { Migrator } = require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations');
  const { migrationsList } = require('./migrations') as typeof import('./migrations');
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList, transactional: true, allOrNothing: true, silent: true });
  return new Migrator(orm.em as ConstructorParameters<typeof Migrator>[0]);
}

/** Names of the migrations not applied yet. */
export async function pendingMigrations(orm: Orm): Promise<string[]> {
  return (await migratorOf(orm).getPendingMigrations()).map((m) => m.name);
}

/**
 * Applies pending migrations; returns the names it ran. A session advisory lock serialises concurrent callers
 * (several test runners or replicas starting at once), so each migration runs exactly once.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const lock = new Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(7071401)');
    const applied = await migratorOf(orm).up();
    return applied.map((m) => m.name);
  } finally {
    await lock.end();
  }
}
