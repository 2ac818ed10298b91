import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from '@cfdi/db';
import { runCli } from './cli';
import { startStack, type StackHarness } from './stack';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
  pending?: string[];
}

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => stack?.close());

/** `cfdi doctor --json` against the stack's database, Temporal, sandbox PAC and API, with `env` overriding. */
async function doctor(env: Record<string, string> = {}) {
  const run = await runCli(stack.api.config, ['doctor', '--json'], {
    API_PORT: new URL(stack.api.url).port,
    PAC_SANDBOX_URL: stack.sandbox.url,
    ...env,
  });
  const report = JSON.parse(run.stdout) as { ok: boolean; checks: Check[] };
  return { code: run.code, report, check: (name: string) => report.checks.find((c) => c.name === name) };
}

it('`doctor --json` finds the worker polling every task queue, the migrations applied and the services up', async () => {
  const { code, report, check } = await doctor();
  const queue = stack.taskQueue;
  expect(check('worker')).toEqual({
    name: 'worker',
    ok: true,
    detail: expect.stringMatching(new RegExp(`^polling ${queue}, ${queue}-files, ${queue}-webhooks: \\S+`)),
  });
  expect(check('migrations')).toEqual({ name: 'migrations', ok: true, detail: 'up to date', pending: [] });
  for (const name of ['PostgreSQL', 'Redis', 'Temporal', 'API', 'PAC sandbox'])
    expect(check(name)?.ok).toBe(true);
  expect({ code, ok: report.ok }).toEqual(
    report.checks.every((c) => c.ok) ? { code: 0, ok: true } : { code: 1, ok: false },
  );
}, 120_000);

it('a task queue no worker polls fails the check, names the queues and says how to start the worker', async () => {
  const queue = `unpolled-${randomBytes(4).toString('hex')}`;
  const { code, report, check } = await doctor({ TEMPORAL_TASK_QUEUE: queue });
  expect(check('worker')).toEqual({
    name: 'worker',
    ok: false,
    detail: `no worker polls ${queue} (workflow), ${queue} (activity), ${queue}-files (activity), ${queue}-webhooks (workflow), ${queue}-webhooks (activity)`,
    fix: expect.stringContaining('npm run up'),
  });
  expect({ code, ok: report.ok }).toEqual({ code: 1, ok: false });
}, 120_000);

it('a database without the schema lists its pending migrations by name', async () => {
  const url = new URL(stack.api.config.databaseUrl);
  const name = `${url.pathname.slice(1)}_doctor_${randomBytes(4).toString('hex')}`;
  url.pathname = `/${name}`;
  await ensureDatabase(url.toString());
  try {
    const { check } = await doctor({ DATABASE_URL: url.toString() });
    const migrations = check('migrations')!;
    expect(migrations).toMatchObject({ ok: false, fix: expect.stringContaining('cfdi db migrate') });
    expect(migrations.pending!.length).toBeGreaterThan(1);
    expect(migrations.detail).toBe(
      `${migrations.pending!.length} pending: ${migrations.pending!.join(', ')}`,
    );
  } finally {
    url.pathname = '/postgres';
    const admin = new Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`drop database if exists "${name}"`).finally(() => admin.end());
  }
}, 120_000);
