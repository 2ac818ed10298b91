import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';
import { importCatalogsIfNeeded } from '@cfdi/devstack';
import {
  loadDeliveryTargets,
  loadSigningCsd,
  rotateMasterKey,
  type MasterKey,
  type MasterKeyring,
} from '@cfdi/services';
import { testConfig } from '@cfdi/testkit';
import { runCli } from './cli';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import {
  idempotencyKey,
  invoiceBody,
  shiftedClock,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

/**
 * A database of its own: a rotation rewrites every secret in the database, which would pull the other suites'
 * CSDs from under their key.
 */
const baseUrl = new URL(testConfig().databaseUrl);
const databaseUrl = Object.assign(new URL(baseUrl), {
  pathname: `${baseUrl.pathname}_master_keys`,
}).toString();

const key = (id: string, fill: number): MasterKey => ({ id, key: Buffer.alloc(32, fill) });
const A = key('kA', 0xa1);
const B = key('kB', 0xb2);
const C = key('kC', 0xc3);
// One sandbox PAC for the file: the CSDs registered with it before the rotation still seal after it.
let sandbox: RunningPacSandbox;
const env = (current: MasterKey, previous: MasterKey[] = []): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  PAC_SANDBOX_URL: sandbox.url,
  MASTER_KEY: current.key.toString('base64'),
  MASTER_KEY_ID: current.id,
  MASTER_KEYS_PREVIOUS: previous.map((k) => `${k.id}:${k.key.toString('base64')}`).join(','),
});
const ring = (current: MasterKey, previous: MasterKey[] = []): MasterKeyring => ({ ...current, previous });

let orm: Orm;
let stack: StackHarness | undefined;
const merchants: { accountId: string; merchantId: string; testKey: string }[] = [];
const endpointIds: string[] = [];

async function dropDatabase(): Promise<void> {
  const admin = new Client({ connectionString: baseUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${new URL(databaseUrl).pathname.slice(1)}" with (force)`);
  await admin.end();
}

beforeAll(async () => {
  await dropDatabase();
  await ensureDatabase(databaseUrl);
  orm = await createOrm(databaseUrl);
  await migrate(orm);
  await importCatalogsIfNeeded(orm, () => undefined);
  sandbox = await startPacSandbox({ now: shiftedClock() });

  // Three merchants with their CSD and seven webhook endpoints (one with a replaced secret), all under key A.
  stack = await startStack(env(A));
  for (let i = 0; i < 3; i++) merchants.push(await stampingAccount(stack));
  for (let i = 0; i < 7; i++) {
    const res = await stack.api.request('POST', '/v1/webhook_endpoints', {
      key: merchants[0]!.testKey,
      body: { url: `http://127.0.0.1:9/hook-${i}`, enabledEvents: ['*'] },
    });
    expect(res.status).toBe(201);
    endpointIds.push(res.body.id);
  }
  const rotated = await stack.api.request('POST', `/v1/webhook_endpoints/${endpointIds[0]}/rotate_secret`, {
    key: merchants[0]!.testKey,
  });
  expect(rotated.status).toBe(200);
  await stack.close();
  stack = undefined;
}, 180_000);

afterAll(async () => {
  await stack?.close();
  await sandbox?.close();
  await orm?.close();
  await dropDatabase();
});

/** Every envelope's key id, by table. */
async function keyIds(): Promise<string[]> {
  const rows: { id: string }[] = await orm.em.fork().execute(
    `select split_part(e, ':', 2) as id from (
       select unnest(array[private_key_encrypted, password_encrypted]) as e from merchant_csds
       union all select unnest(array[secret, previous_secret]) from webhook_endpoints) s
     where e is not null`,
  );
  return rows.map((row) => row.id);
}

const count = (ids: string[], id: string) => ids.filter((k) => k === id).length;

/** Opens every stored secret with exactly this ring: the CSDs as signing keys, the endpoints' secrets. */
async function openEverything(keys: MasterKeyring) {
  const em = orm.em.fork();
  for (const m of merchants) {
    const scope = { accountId: m.accountId, livemode: false, keyId: 'key_test', merchantIds: null };
    const csd = await loadSigningCsd(em, keys, scope, m.merchantId);
    expect(csd.privateKey.asymmetricKeyType).toBe('rsa');
  }
  const targets = await loadDeliveryTargets(em, keys, endpointIds, new Date());
  expect([...targets.values()].map((t) => t.secrets.length).sort()).toEqual([1, 1, 1, 1, 1, 1, 2]);
  for (const target of targets.values())
    for (const secret of target.secrets) expect(secret).toMatch(/^whsec_/);
}

it('services: a rotation cut short leaves every secret readable under both keys, and a second run finishes it', async () => {
  const total = (await keyIds()).length;
  expect(total).toBe(3 * 2 + 7 + 1);
  expect(count(await keyIds(), 'kA')).toBe(total);

  let batches = 0;
  const interrupted = rotateMasterKey(orm.em.fork(), ring(B, [A]), {
    batchSize: 2,
    onBatch: () => {
      if (++batches === 2) throw new Error('interrupted');
    },
  });
  await expect(interrupted).rejects.toThrow('interrupted');
  // Two batches: the three CSD rows (two envelopes each) moved, every webhook endpoint still under A.
  const midway = await keyIds();
  expect([count(midway, 'kB'), count(midway, 'kA')]).toEqual([3 * 2, total - 3 * 2]);
  await openEverything(ring(B, [A]));

  const finished = await rotateMasterKey(orm.em.fork(), ring(B, [A]), { batchSize: 2 });
  expect(finished).toEqual({
    keyId: 'kB',
    tables: { merchant_csds: { rotated: 0, failed: 0 }, webhook_endpoints: { rotated: 7, failed: 0 } },
    failures: [],
  });
  expect(count(await keyIds(), 'kB')).toBe(total);
  await openEverything(ring(B));
  // Idempotent: nothing is left to do.
  expect((await rotateMasterKey(orm.em.fork(), ring(B, [A]))).tables).toEqual({
    merchant_csds: { rotated: 0, failed: 0 },
    webhook_endpoints: { rotated: 0, failed: 0 },
  });
}, 60_000);

const CFDI = path.resolve(__dirname, '../../../cli/bin/cfdi.js');

it('`cfdi master-key rotate` killed mid-way (SIGKILL) and run again: every secret under the new key alone, and a stamp seals', async () => {
  const total = (await keyIds()).length;
  expect(count(await keyIds(), 'kB')).toBe(total);
  const config = testConfig(env(C, [B]));

  // Batches of two rows with a long pause after each: the kill lands after the first batch, before the second.
  const child = spawn(
    process.execPath,
    [CFDI, 'master-key', 'rotate', '--batch-size', '2', '--pause', '60000'],
    { env: { ...process.env, ...env(C, [B]) }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('progress:')) resolve();
    });
    child.on('exit', () => reject(new Error(`cfdi exited before its first batch: ${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  expect(stderr).toContain('progress: merchant_csds 2 rotated; webhook_endpoints 0 rotated');
  const midway = await keyIds();
  expect([count(midway, 'kC'), count(midway, 'kB')]).toEqual([4, total - 4]);

  const resumed = await runCli(config, ['master-key', 'rotate', '--batch-size', '2', '--json'], env(C, [B]));
  expect(resumed.code).toBe(0);
  expect(JSON.parse(resumed.stdout)).toEqual({
    keyId: 'kC',
    tables: { merchant_csds: { rotated: 1, failed: 0 }, webhook_endpoints: { rotated: 7, failed: 0 } },
    failures: [],
  });
  expect(count(await keyIds(), 'kC')).toBe(total);
  await openEverything(ring(C));

  // The whole stack with key C alone (B removed from the configuration): the CSD seals a stamp.
  stack = await startStack(env(C));
  const merchant = merchants[1]!;
  const stamped = await stack.api.request('POST', '/v1/invoices', {
    key: merchant.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(merchant.merchantId),
  });
  expect([stamped.status, stamped.body.status, stamped.body.detail]).toEqual([201, 'stamped', undefined]);
}, 180_000);

it('`cfdi master-key rotate` names a secret under a key it was not given and exits 1, changing nothing else; doctor names both key ids', async () => {
  const config = testConfig(env(A, [B]));
  const result = await runCli(config, ['master-key', 'rotate'], env(A, [B]));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    `merchant_csds ${[...merchants].sort((x, y) => x.merchantId.localeCompare(y.merchantId))[0]!.merchantId}: secret encrypted under master key "kC", which is not configured`,
  );
  expect(count(await keyIds(), 'kC')).toBe((await keyIds()).length);
  const usage = await runCli(config, ['master-key', 'rotate', '--batch-size', '0'], env(A, [B]));
  expect(usage.code).toBe(2);
  const doctor = JSON.parse((await runCli(config, ['doctor', '--json'], env(A, [B]))).stdout);
  expect(doctor.checks.find((check: { name: string }) => check.name === 'master key').detail).toBe(
    'key id kA; also reads kB (MASTER_KEYS_PREVIOUS)',
  );
}, 60_000);
