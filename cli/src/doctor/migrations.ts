import { createOrm, pendingMigrations } from '@cfdi/db';
import type { CheckResult } from '@cfdi/devstack';

/** The migrations the database has not run yet, by name. */
export async function checkMigrations(databaseUrl: string): Promise<CheckResult & { pending?: string[] }> {
  try {
    const orm = await createOrm(databaseUrl);
    try {
      const pending = await pendingMigrations(orm);
      return pending.length
        ? {
            name: 'migrations',
            ok: false,
            detail: `${pending.length} pending: ${pending.join(', ')}`,
            fix: 'Run `npm run up` (it migrates) or `npx cfdi db migrate`.',
            pending,
          }
        : { name: 'migrations', ok: true, detail: 'up to date', pending };
    } finally {
      await orm.close();
    }
  } catch (error) {
    return {
      name: 'migrations',
      ok: false,
      detail: (error as Error).message,
      fix: 'Create the database: `npx cfdi db migrate`.',
    };
  }
}
