import type { Command } from 'commander';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import type { CliContext } from '../context';

export function registerDbCommands(program: Command, ctx: CliContext): void {
  program
    .command('db')
    .command('migrate')
    .description('Create the database when missing and apply pending migrations')
    .action(async () => {
      const created = await ensureDatabase(ctx.config.databaseUrl);
      const orm = await createOrm(ctx.config.databaseUrl);
      try {
        const applied = await migrate(orm);
        process.stdout.write(
          `${created ? 'database created; ' : ''}${applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations'}\n`,
        );
      } finally {
        await orm.close();
      }
    });
}
