import {
  AbstractSqlDriver,
  MikroORM,
  PostgreSqlConnection,
  PostgreSqlPlatform,
  type AnyEntity,
  type Configuration,
  type EntityData,
  type Knex,
  type LoggingOptions,
  type Options,
  type QueryResult,
  type Transaction,
} from '@mikro-orm/postgresql';
import type { Migrator } from '@mikro-orm/migrations';
import { Client } from 'pg';
import { buildConcurrentIndexes } from './migrations/concurrent-indexes';

export type Orm = MikroORM;

/**
 * Raw statements (`em.execute(sql, params)`) with their parameters bound by the driver: pg sends the text and the
 * values apart (extended protocol), instead of MikroORM writing every value into the statement's text as a literal.
 * A value is never parsed as SQL, and a stamped 500-item CFDI (~350 KB) is not escaped character by character. `?`
 * placeholders become `$n` (knex); an array is one parameter (a PostgreSQL array: `= any(?)`, not `in (?)`).
 */
class BoundParametersConnection extends PostgreSqlConnection {
  override async execute<
    T extends QueryResult | EntityData<AnyEntity> | EntityData<AnyEntity>[] = EntityData<AnyEntity>[],
  >(
    queryOrKnex: string | Knex.QueryBuilder | Knex.Raw,
    params: unknown[] = [],
    method: 'all' | 'get' | 'run' = 'all',
    ctx?: Transaction,
    loggerContext?: LoggingOptions,
  ): Promise<T> {
    if (typeof queryOrKnex !== 'string' || params.length === 0)
      return super.execute(queryOrKnex, params, method, ctx, loggerContext);
    await this.ensureConnection();
    return this.executeQuery<T>(
      queryOrKnex,
      async () => {
        const query = this.getKnex().raw(queryOrKnex, params as Knex.RawBinding[]);
        if (ctx) query.transacting(ctx as Knex.Transaction);
        return this.transformRawResult<T>(await query, method);
      },
      { query: queryOrKnex, params, ...loggerContext },
    );
  }
}

/** MikroORM's PostgreSQL driver with the connection above. */
class Driver extends AbstractSqlDriver<BoundParametersConnection> {
  constructor(config: Configuration) {
    super(config, new PostgreSqlPlatform(), BoundParametersConnection, ['knex', 'pg']);
  }
}

export function ormOptions(databaseUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    driver: Driver,
    clientUrl: databaseUrl,
    // No entities: services write SQL (see docs/architecture.md "Data"); MikroORM keeps the pool, transactions and
    // migrations.
    entities: [],
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
  orm.config.set('migrations', {
    ...orm.config.get('migrations'),
    migrationsList,
    transactional: true,
    allOrNothing: true,
    silent: true,
  });
  return new Migrator(orm.em as ConstructorParameters<typeof Migrator>[0]);
}

/** Names of the migrations not applied yet. */
export async function pendingMigrations(orm: Orm): Promise<string[]> {
  return (await migratorOf(orm).getPendingMigrations()).map((m) => m.name);
}

/**
 * Applies pending migrations, then builds the concurrent indexes missing; returns the migrations' names it ran. A session advisory lock serialises concurrent callers
 * (several test runners or replicas starting at once), so each migration runs exactly once.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const lock = new Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(7071401)');
    const applied = await migratorOf(orm).up();
    // Outside the migrations' transaction, still under the lock: one builder at a time.
    await buildConcurrentIndexes(lock);
    return applied.map((m) => m.name);
  } finally {
    await lock.end();
  }
}
