import { loadConfig } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';

/** The configured server with another database name: every test file gets its own scratch database. */
export function testDatabaseUrl(name: string): string {
  const url = new URL(loadConfig().databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates (if needed) and migrates `name`, and starts each file from empty catalog tables. */
export async function openTestDatabase(name: string): Promise<Orm> {
  const url = testDatabaseUrl(name);
  await ensureDatabase(url);
  const orm = await createOrm(url);
  await migrate(orm);
  await orm.em.getKnex().raw('truncate catalog_products, catalog_units, catalog_entries, catalog_versions');
  return orm;
}
