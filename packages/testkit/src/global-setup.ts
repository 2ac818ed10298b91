import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { testConfig } from './env';

/** jest globalSetup: the test database exists and is migrated before any suite runs. */
export default async function globalSetup(): Promise<void> {
  const config = testConfig();
  await ensureDatabase(config.databaseUrl);
  const orm = await createOrm(config.databaseUrl);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
}
