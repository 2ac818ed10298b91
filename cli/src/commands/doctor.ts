import type { Command } from 'commander';
import { checkHttp, checkPostgres, checkRedis, checkStorage, checkTemporal, checkTool, formatCheck, type CheckResult } from '@cfdi/devstack';
import { createOrm, pendingMigrations } from '@cfdi/db';
import type { CliContext } from '../context';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .action(async () => {
      const config = ctx.config; // an invalid configuration fails here, listing each bad variable
      const results: CheckResult[] = [await checkPostgres(config)];
      if (results[0]!.ok) results.push(await checkMigrations(config.databaseUrl));
      results.push(
        await checkRedis(config),
        await checkTemporal(config),
        await checkHttp('PAC sandbox', `${config.pac.sandboxUrl}/health`, 'Start it with `npm run up` or set PAC_SANDBOX_URL.'),
        await checkHttp('API', `http://${config.api.host}:${config.api.port}/ready`, 'Start it with `npm run up`.'),
        checkTool('xmllint', 'libxml2-utils'),
        checkTool('xsltproc', 'xsltproc'),
        await checkStorage(config),
        {
          name: 'master key', ok: Boolean(config.masterKey) || !config.liveEnabled,
          detail: config.masterKey ? `key id ${config.masterKey.id}` : 'not set (test mode only)',
          fix: 'Set MASTER_KEY (openssl rand -base64 32) before enabling live mode.',
        },
      );
      for (const result of results) process.stdout.write(`${formatCheck(result)}\n`);
      const failed = results.filter((r) => !r.ok).length;
      process.stdout.write(failed ? `\n${failed} problem(s) found.\n` : '\nEverything looks fine.\n');
      if (failed) process.exitCode = 1;
    });
}

async function checkMigrations(databaseUrl: string): Promise<CheckResult> {
  try {
    const orm = await createOrm(databaseUrl);
    try {
      const pending = await pendingMigrations(orm);
      return pending.length
        ? { name: 'migrations', ok: false, detail: `${pending.length} pending`, fix: 'Run `npm run up` (it migrates) or `npx cfdi db migrate`.' }
        : { name: 'migrations', ok: true, detail: 'up to date' };
    } finally {
      await orm.close();
    }
  } catch (error) {
    return { name: 'migrations', ok: false, detail: (error as Error).message, fix: 'Create the database: `npx cfdi db migrate`.' };
  }
}
