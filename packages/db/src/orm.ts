import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities';
import { migrationsList } from './migrations';

export type Orm = MikroORM;

export function ormOptions(databaseUrl: string, overrides: Partial<Options> = {}): Options {
  return {
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true },
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 10 },
    debug: false,
    allowGlobalContext: false,
    ...overrides,
  };
}

/** Opens the connection pool. Callers own the instance and must `close()` it. */
export async function createOrm(databaseUrl: string, overrides: Partial<Options> = {}): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, overrides));
}

/** Applies pending migrations; returns the names it ran. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
