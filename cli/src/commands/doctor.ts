import type { Command } from 'commander';
import {
  checkHttp,
  checkPostgres,
  checkRedis,
  checkStorage,
  checkTemporal,
  checkTool,
  formatCheck,
  type CheckResult,
} from '@cfdi/devstack';
import type { CliContext } from '../context';
import { checkMigrations } from '../doctor/migrations';
import { checkWorkerPollers } from '../doctor/worker-pollers';

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .option('--json', 'print {"ok", "checks": [{"name", "ok", "detail", "fix"}]} as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = ctx.config; // an invalid configuration fails here, listing each bad variable
      const results: CheckResult[] = [await checkPostgres(config)];
      if (results[0]!.ok) results.push(await checkMigrations(config.databaseUrl));
      const temporal = await checkTemporal(config);
      results.push(await checkRedis(config), temporal);
      if (temporal.ok) results.push(await checkWorkerPollers(config));
      results.push(
        await checkHttp(
          'PAC sandbox',
          `${config.pac.sandboxUrl}/health`,
          'Start it with `npm run up` or set PAC_SANDBOX_URL.',
        ),
        await checkHttp(
          'API',
          `http://${config.api.host}:${config.api.port}/ready`,
          'Start it with `npm run up`.',
        ),
        checkTool('xmllint', 'libxml2-utils'),
        checkTool('xsltproc', 'xsltproc'),
        await checkStorage(config),
        masterKeyCheck(ctx),
      );
      const failed = results.filter((r) => !r.ok).length;
      if (failed) process.exitCode = 1;
      if (options.json) return ctx.print({ ok: failed === 0, checks: results }, true);
      for (const result of results) process.stdout.write(`${formatCheck(result)}\n`);
      process.stdout.write(failed ? `\n${failed} problem(s) found.\n` : '\nEverything looks fine.\n');
    });
}

/** During a rotation: the retired ids still read (`cfdi master-key rotate`, then remove MASTER_KEYS_PREVIOUS). */
const previousKeys = (previous: readonly { id: string }[]) =>
  previous.length ? `; also reads ${previous.map((k) => k.id).join(', ')} (MASTER_KEYS_PREVIOUS)` : '';

function masterKeyCheck(ctx: CliContext): CheckResult {
  const { masterKey, liveEnabled } = ctx.config;
  const source =
    ctx.masterKeySource === 'dev file'
      ? ', the development key `npm run up` keeps in var/dev-master-key'
      : '';
  return {
    name: 'master key',
    ok: Boolean(masterKey) || !liveEnabled,
    detail: masterKey
      ? `key id ${masterKey.id}${source}${previousKeys(masterKey.previous)}`
      : 'not set (test mode only)',
    fix: 'Set MASTER_KEY (openssl rand -base64 32) before enabling live mode.',
  };
}
