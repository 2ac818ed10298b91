import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import {
  createDocumentExport,
  createDocumentFileProducer,
  documentsZip,
  NotFoundError,
  retrieveDocumentExport,
  type DocumentExportRow,
  type Scope,
} from '@cfdi/services';
import { exportWorkflowId, startDocumentExport } from '@cfdi/temporal-contract/client';
import { waitFor } from '@cfdi/testkit';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { spawnWorker, stopChild } from './child-processes';

// Two documents per ZIP part, so an export of 8 is four activities and the kill lands between or inside them; three
// rows per CSV part, to tell the two sizes apart.
process.env.EXPORT_PART_DOCUMENTS = '2';
process.env.EXPORT_CSV_PART_ROWS = '3';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const em = () => stack.api.orm.em.fork();
const scopeOf = (accountId: string): Scope => ({
  accountId,
  livemode: false,
  keyId: 'test',
  merchantIds: null,
});
const exportRow = (id: string) =>
  em()
    .execute('select * from document_exports where id = ?', [id])
    .then((rows) => rows[0] as DocumentExportRow);

/** The export's file as a browser gets it: through the API's signed URL. */
async function download(key: string): Promise<Buffer> {
  const signed = new URL(stack.api.deps.fileUrls.url(key));
  const res = await fetch(`${stack.api.url}${signed.pathname}${signed.search}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

it('a worker SIGKILLed in the middle of a ZIP export: a new worker finishes it, every XML and PDF in the ZIP', async () => {
  const account = await stampingAccount(stack);
  const stamped: { id: string; uuid: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    expect(res.status).toBe(201);
    stamped.push({ id: res.body.id, uuid: res.body.uuid });
  }
  await stack.stopWorker(); // the export runs on child-process workers, killed and restarted
  const scope = scopeOf(account.accountId);
  const job = await createDocumentExport(em(), scope, {
    format: 'zip',
    search: {},
    requestedBy: null,
  });
  expect({ status: job.status, total: job.total, processed: job.processed }).toEqual({
    status: 'running',
    total: 8,
    processed: 0,
  });
  const first = await spawnWorker(stack);
  await startDocumentExport(stack.api.deps.temporal, job.id, stack.taskQueue);
  // Killed as soon as the first part is recorded: the second one (two PDFs to render) is in flight.
  await waitFor(async () => ((await exportRow(job.id)).processed >= 2 ? true : undefined), {
    timeoutMs: 60_000,
    what: 'the first part',
  });
  await stopChild(first, 'SIGKILL');
  expect((await exportRow(job.id)).status).toBe('running');

  const second = await spawnWorker(stack);
  try {
    const ready = await waitFor(
      async () => {
        const row = await exportRow(job.id);
        return row.status === 'running' ? undefined : row;
      },
      { timeoutMs: 90_000, what: 'the export after the restart' },
    );
    expect({ status: ready.status, processed: ready.processed, error: ready.error }).toEqual({
      status: 'ready',
      processed: 8,
      error: null,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-workflow-'));
    const zip = path.join(dir, 'export.zip');
    fs.writeFileSync(zip, await download(ready.file_key!));
    expect(fs.statSync(zip).size).toBe(Number(ready.bytes));
    execFileSync('unzip', ['-tq', zip]);
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(names.sort()).toEqual(stamped.flatMap((d) => [`${d.uuid}.pdf`, `${d.uuid}.xml`]).sort());
    const xsd = path.join(defaultSatDir(), 'xml', 'cfdi40-bundle.xsd');
    for (const { id, uuid } of stamped) {
      const [{ stamped_xml }] = (await em().execute('select stamped_xml from documents where id = ?', [
        id,
      ])) as [{ stamped_xml: string }];
      const xml = execFileSync('unzip', ['-p', zip, `${uuid}.xml`]);
      expect(xml.toString('utf8')).toBe(stamped_xml);
      fs.writeFileSync(path.join(dir, `${uuid}.xml`), xml);
      execFileSync('xmllint', ['--noout', '--schema', xsd, path.join(dir, `${uuid}.xml`)], { stdio: 'pipe' });
      const pdf = execFileSync('unzip', ['-p', zip, `${uuid}.pdf`]);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    // The parts are gone once the file is stored.
    const parts = path.join(stack.api.config.storage.driver === 'local' ? stack.api.config.storage.dir : '');
    if (parts) {
      const folder = path.join(parts, path.dirname(ready.file_key!), 'parts');
      expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([]);
    }
  } finally {
    await stopChild(second);
  }
}, 240_000);

/** How many parts the export's workflow wrote (its writeExportPart activities). */
async function partsWritten(exportId: string): Promise<number> {
  const history = await stack.api.deps.temporal.workflow.getHandle(exportWorkflowId(exportId)).fetchHistory();
  return history.events!.filter(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'writeExportPart',
  ).length;
}

it('a CSV is written in parts of EXPORT_CSV_PART_ROWS rows and a ZIP in parts of EXPORT_PART_DOCUMENTS documents', async () => {
  const worker = await spawnWorker(stack); // the stack's own worker was stopped above
  try {
    const account = await stampingAccount(stack);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await stack.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const built: Record<string, DocumentExportRow> = {};
    for (const format of ['csv', 'zip'] as const) {
      const job = await createDocumentExport(em(), scopeOf(account.accountId), {
        format,
        search: {},
        requestedBy: null,
      });
      await startDocumentExport(stack.api.deps.temporal, job.id, stack.taskQueue);
      built[format] = await waitFor(
        async () => {
          const row = await exportRow(job.id);
          return row.status === 'running' ? undefined : row;
        },
        { timeoutMs: 60_000, what: `the ${format} export` },
      );
      expect(built[format]!.status).toBe('ready');
    }
    expect(await partsWritten(built.csv!.id)).toBe(3); // 3 + 3 + 1 rows
    expect(await partsWritten(built.zip!.id)).toBe(4); // 2 + 2 + 2 + 1 documents
    // The header once, then every document, newest first, across the parts.
    const lines = (await download(built.csv!.file_key!)).toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^id,createdAt,/);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([...ids].reverse());
  } finally {
    await stopChild(worker);
  }
}, 180_000);

it('a streamed ZIP (a small export) renders a missing PDF as a first download does, and stores it', async () => {
  const worker = await spawnWorker(stack);
  try {
    const account = await stampingAccount(stack);
    const stamped: { id: string; uuid: string; files: { pdf: string } }[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await stack.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId),
      });
      expect(res.status).toBe(201);
      const [row] = (await em().execute('select id, uuid, files from documents where id = ?', [
        res.body.id,
      ])) as [(typeof stamped)[number]];
      stamped.push(row);
    }
    const { storage } = stack.api.deps;
    // Files on demand: nothing rendered yet.
    for (const { files } of stamped) expect(await storage.get(files.pdf)).toBeNull();
    const producer = createDocumentFileProducer({
      storage,
      renderFiles: stack.api.deps.renderFiles,
      onFailure: () => undefined,
    });
    // The console route's reader (documents/export/[format]/route.ts).
    const zip = documentsZip(
      em(),
      scopeOf(account.accountId),
      {},
      {
        read: async (key) => (await storage.get(key))?.bytes ?? null,
        renderPdf: async (_row, key) => (await producer.produce(em(), key))?.bytes ?? null,
      },
    );
    const chunks: Buffer[] = [];
    for await (const chunk of zip) chunks.push(Buffer.from(chunk as Buffer));
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'export-stream-')), 'export.zip');
    fs.writeFileSync(file, Buffer.concat(chunks));
    execFileSync('unzip', ['-tq', file]);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names.sort()).toEqual(stamped.flatMap((d) => [`${d.uuid}.pdf`, `${d.uuid}.xml`]).sort());
    // Stored as the render's writes finish (the download does not wait for them), the bytes the ZIP holds.
    for (const { uuid, files } of stamped) {
      const stored = await waitFor(async () => (await storage.get(files.pdf))?.bytes, {
        what: 'the stored PDF',
      });
      expect(execFileSync('unzip', ['-p', file, `${uuid}.pdf`]).equals(stored)).toBe(true);
    }
  } finally {
    await stopChild(worker);
  }
}, 120_000);

it("another account's export, or the other mode's, is not found", async () => {
  const account = await stampingAccount(stack);
  const other = await stampingAccount(stack);
  const job = await createDocumentExport(em(), scopeOf(account.accountId), {
    format: 'csv',
    search: {},
    requestedBy: null,
  });
  await expect(retrieveDocumentExport(em(), scopeOf(other.accountId), job.id)).rejects.toThrow(NotFoundError);
  await expect(
    retrieveDocumentExport(em(), { ...scopeOf(account.accountId), livemode: true }, job.id),
  ).rejects.toThrow(NotFoundError);
  expect((await retrieveDocumentExport(em(), scopeOf(account.accountId), job.id)).id).toBe(job.id);
});
