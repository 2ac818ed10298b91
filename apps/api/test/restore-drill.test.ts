import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createOrm, ensureDatabase, migrate, type Orm } from '@cfdi/db';
import { importCatalogsIfNeeded } from '@cfdi/devstack';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { createFileStorage } from '@cfdi/storage';
import { testConfig, waitFor } from '@cfdi/testkit';
import { runCli } from './cli';
import { nominaBody } from './nomina-fixtures';
import {
  idempotencyKey,
  invoiceBody,
  shiftedClock,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

/**
 * The restore drill of docs/operations.md ("Backups and restore"), end to end: a stack stamps every kind of
 * document, its database is dumped with pg_dump and its files copied, both are restored elsewhere, and the
 * restored copy must pass `cfdi ledger verify` with every stamped XML in storage, byte for byte the database's.
 */
const run = promisify(execFile);
const baseUrl = new URL(testConfig().databaseUrl);
const databaseNamed = (suffix: string) =>
  Object.assign(new URL(baseUrl), { pathname: `${baseUrl.pathname}_${suffix}` }).toString();
const sourceUrl = databaseNamed('drill_source');
const restoredUrl = databaseNamed('drill_restored');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-restore-drill-'));
const sourceFiles = path.join(work, 'files');
const restoredFiles = path.join(work, 'files-restored');
const MASTER_KEY = Buffer.alloc(32, 0x5d).toString('base64');

let sandbox: RunningPacSandbox;
let stack: StackHarness | undefined;
let source: Orm;
let restored: Orm | undefined;

async function dropDatabase(url: string): Promise<void> {
  const admin = new Client({ connectionString: baseUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`);
  await admin.end();
}

beforeAll(async () => {
  await dropDatabase(sourceUrl);
  await dropDatabase(restoredUrl);
  await ensureDatabase(sourceUrl);
  source = await createOrm(sourceUrl);
  await migrate(source);
  await importCatalogsIfNeeded(source, () => undefined);
  sandbox = await startPacSandbox({ now: shiftedClock() });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await sandbox?.close();
  await source?.close();
  await restored?.close();
  await dropDatabase(sourceUrl);
  await dropDatabase(restoredUrl);
  fs.rmSync(work, { recursive: true, force: true });
});

interface StoredDocument {
  id: string;
  status: string;
  uuid: string;
  stamped_xml: string;
  xml_key: string | null;
  acuse_key: string | null;
}

const documentsOf = async (orm: Orm): Promise<StoredDocument[]> =>
  orm.em.fork().execute(
    `select id, status, uuid, stamped_xml, files->>'xml' as xml_key, cancellation->'acuse'->>'xmlKey' as acuse_key
       from documents where uuid is not null order by id`,
  );

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

it('a pg_dump of a stack with invoices, a payment, a cancellation and a payroll receipt restores clean', async () => {
  const env = {
    DATABASE_URL: sourceUrl,
    PAC_SANDBOX_URL: sandbox.url,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: sourceFiles,
    MASTER_KEY,
  };
  stack = await startStack(env);
  const api = stack.api;
  const account = await stampingAccount(stack);
  const post = async (url: string, body: unknown) => {
    const res = await api.request('POST', url, {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body,
    });
    expect([url, res.status]).toEqual([url, url.endsWith('/cancel') ? 202 : 201]);
    return res.body;
  };
  const invoice = await post('/v1/invoices', invoiceBody(account.merchantId));
  const ppd = await post(
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 1160 },
      ],
    }),
  );
  const payment = await post(`/v1/invoices/${ppd.id}/payments`, { monto: 1160, formaPago: '03' });
  const nomina = await post('/v1/nominas', nominaBody(account.merchantId));
  const cancelled = await post(
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Mouse', quantity: 1, unitPrice: 580 },
      ],
    }),
  );
  const stamped = [invoice, ppd, payment, nomina, cancelled];
  // Files are produced on first download: fetch every PDF so the XML, PDF and ZIP are in storage before the backup.
  const storage = createFileStorage(api.config);
  for (const document of stamped) {
    const pdf = new URL(document.files.pdfUrl);
    expect((await fetch(api.url + pdf.pathname + pdf.search)).status).toBe(200);
  }
  await waitFor(
    async () => {
      const present = await Promise.all(
        (await documentsOf(source)).map(async (d) => (await storage.get(d.xml_key!)) !== null),
      );
      return present.every(Boolean) ? true : undefined;
    },
    { what: 'every document file stored' },
  );
  await post(`/v1/invoices/${cancelled.id}/cancel`, { motivo: '02' });
  await waitFor(
    async () => {
      const [row] = (await documentsOf(source)).filter((d) => d.id === cancelled.id);
      return row?.status === 'cancelled' ? row : undefined;
    },
    { what: 'the cancellation to complete' },
  );
  await stack.close();
  stack = undefined;

  // The backup (database first, then the files) and the restore, as the runbook says.
  const dump = path.join(work, 'cfdi.dump');
  await run('pg_dump', ['--format=custom', `--file=${dump}`, sourceUrl]);
  fs.cpSync(sourceFiles, restoredFiles, { recursive: true });
  await ensureDatabase(restoredUrl); // createdb
  await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]);

  const config = testConfig({ ...env, DATABASE_URL: restoredUrl, STORAGE_DIR: restoredFiles });
  const cliEnv = { DATABASE_URL: restoredUrl, STORAGE_DIR: restoredFiles, MASTER_KEY };
  const verified = await runCli(config, ['ledger', 'verify', '--json'], cliEnv);
  expect({ code: verified.code, stderr: verified.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(verified.stdout)).toMatchObject({ violations: [] });
  expect(JSON.parse(verified.stdout).balancesChecked).toBeGreaterThan(0);
  expect((await runCli(config, ['db', 'migrate'], cliEnv)).code).toBe(0);

  // Every stamped document came back, with its XML in the restored storage, identical to what the database holds.
  restored = await createOrm(restoredUrl);
  const documents = await documentsOf(restored);
  expect(documents.map((d) => d.id).sort()).toEqual(stamped.map((d) => d.id as string).sort());
  expect(documents).toEqual(await documentsOf(source));
  const restoredStorage = createFileStorage(config);
  for (const document of documents) {
    const xml = await restoredStorage.get(document.xml_key!);
    expect({ id: document.id, sha256: xml && sha256(xml.bytes) }).toEqual({
      id: document.id,
      sha256: sha256(document.stamped_xml),
    });
    expect(document.stamped_xml).toContain(`UUID="${document.uuid}"`);
  }
  // The cancellation's acuse, which exists nowhere else, came back too.
  const [cancelledRow] = documents.filter((d) => d.id === cancelled.id);
  expect(cancelledRow).toMatchObject({ status: 'cancelled', acuse_key: expect.any(String) });
  expect((await restoredStorage.get(cancelledRow!.acuse_key!))?.bytes.toString('utf8')).toContain('Acuse');
}, 300_000);
