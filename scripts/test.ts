import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, createOrm, migrate } from '@cfdi/db';
import { loadConfig } from '@cfdi/config';
import {
  checkPostgres,
  checkRedis,
  ensureMailpit,
  formatCheck,
  freePort,
  importCatalogsIfNeeded,
  startTemporalDevServer,
  Supervisor,
} from '@cfdi/devstack';
import { TEST_ENV_DEFAULTS } from '@cfdi/testkit';
import { ensureSystemTools } from './system-tools';
import { runtimeChecks } from './runtime-checks';
import { repoChecks } from './repo-checks';

const root = path.resolve(__dirname, '..');

// Ctrl-C or SIGTERM: let the running command end (it gets the signal too), then stop the dev server in `finally`
// instead of dying here and leaving it running.
let interrupted = false;
let running: ChildProcess | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    running?.kill(signal);
  });
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    running = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    running.on('exit', (code, signal) => {
      running = null;
      resolve(code ?? (signal ? 130 : 1));
    });
  });
}
const log = (line: string) => process.stdout.write(`[test] ${line}\n`);

/**
 * Runs typecheck and every workspace's tests against the real services: PostgreSQL and Redis must be running;
 * a throwaway in-memory Temporal dev server is started unless TEMPORAL_ADDRESS points at one.
 */
async function main(): Promise<number> {
  for (const [name, value] of Object.entries(TEST_ENV_DEFAULTS)) process.env[name] ??= value;
  // Every workspace's jest appends its failures here (jest.preset.js); listed again as the log's last lines.
  const failedTestsFile = path.join(os.tmpdir(), `cfdi-failed-tests-${process.pid}.txt`);
  fs.writeFileSync(failedTestsFile, '');
  process.env.CFDI_FAILED_TESTS_FILE = failedTestsFile;
  try {
    return await runEverything();
  } finally {
    const failures = fs.readFileSync(failedTestsFile, 'utf8');
    if (failures) log(`failed tests:\n${failures}`);
    fs.rmSync(failedTestsFile, { force: true });
  }
}

async function runEverything(): Promise<number> {
  ensureSystemTools(log);
  // The e-mail suite starts its own Mailpit; built here, once, so a fresh machine's build is not inside a test's timeout.
  ensureMailpit(log);
  const config = loadConfig();
  const checks = [await checkPostgres(config), await checkRedis(config)];
  for (const check of checks) log(formatCheck(check));
  if (checks.some((c) => !c.ok)) return 1;

  await ensureDatabase(config.databaseUrl);
  const orm = await createOrm(config.databaseUrl);
  try {
    await migrate(orm);
    await importCatalogsIfNeeded(orm, log);
  } finally {
    await orm.close();
  }

  const supervisor = new Supervisor((name, code) => log(`${name} exited unexpectedly (${code})`));
  try {
    if (!process.env.TEMPORAL_ADDRESS) {
      process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, {
        port: await freePort(),
        logLevel: 'error',
        log,
      });
      log(`Temporal dev server at ${process.env.TEMPORAL_ADDRESS}`);
    }
    if (interrupted) return 130;
    const turbo = path.join(root, 'node_modules', '.bin', 'turbo');
    const args = process.argv.slice(2);
    // `--runtime` alone: only the production-runtime checks (build, OpenAPI, Node 24, compiled smoke test).
    if (args.length === 1 && args[0] === '--runtime') return await runtimeChecks(run, log);
    // `--repo` alone: only the whole-tree checks (formatting, bench/ and scripts/, layering).
    if (args.length === 1 && args[0] === '--repo') return await repoChecks(run, log);
    const repoCode = args.length ? 0 : await repoChecks(run, log);
    const tasks = args.length ? args : ['typecheck', 'lint', 'test'];
    // One workspace at a time: the suites share the machine's two cores and the test database.
    const code = await run(turbo, ['run', ...tasks, '--concurrency=1', '--continue', '--log-order=grouped']);
    // Interrupted, turbo may still exit 0 with tasks never run: such a run never passes.
    if (interrupted) return 130;
    if (args.length) return code;
    return Math.max(repoCode, code, await runtimeChecks(run, log));
  } finally {
    await supervisor.stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[test] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
