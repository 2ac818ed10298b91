import { rootAttributes } from '@cfdi/cfdi';
import { loadDocumentById, recordStamped, sealDocument, type DocumentRow } from '@cfdi/services';
import { createWorkerDeps } from '@cfdi/worker';
import { waitFor } from '@cfdi/testkit';
import { startApi, type ApiHarness } from './harness';
import { EKU } from './merchant-fixtures';
import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  shiftedClock,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

// Issue #23, defect 2: every accepted document seals to a CFDI of its own (the PAC answers an identical CFDI with
// the first one's stamp), and a duplicate_cfdi failure never names another tenant's document.
let stack: StackHarness;
/**
 * An API of the same stack that hands every stamp to its workflow (STAMP_WAIT_MS=0) instead of stamping it itself:
 * with the worker stopped, what it accepts stays unsealed.
 */
let handingOver: ApiHarness;
beforeAll(async () => {
  stack = await startStack();
  handingOver = await startApi(
    { PAC_SANDBOX_URL: stack.sandbox.url, TEMPORAL_TASK_QUEUE: stack.taskQueue, STAMP_WAIT_MS: '0' },
    { now: shiftedClock() },
  );
}, 60_000);
afterAll(async () => {
  await handingOver?.close();
  await stack?.close();
}, 60_000);

const post = (key: string, path: string, body: unknown, api: ApiHarness = stack.api) =>
  api.request('POST', path, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const sameBody = (merchantId: string) => invoiceBody(merchantId, { folio: 'F-0001' });
const stamped = (key: string, id: string) =>
  waitFor(
    async () => {
      const current = (await stack.api.request('GET', `/v1/invoices/${id}`, { key })).body;
      return current.status === 'stamped' ? current : undefined;
    },
    { what: `invoice ${id} stamped`, timeoutMs: 60_000 },
  );

it('seals two identical documents accepted in the same second to two CFDIs: Fecha moves one second back', async () => {
  const account = await stampingAccount(stack);
  await stack.stopWorker();
  let ids: string[];
  try {
    // Handed to their workflows with no worker, both answer 202, unsealed; they are then sealed at the same instant.
    const accepted = await Promise.all([
      post(account.testKey, '/v1/invoices', sameBody(account.merchantId), handingOver),
      post(account.testKey, '/v1/invoices', sameBody(account.merchantId), handingOver),
    ]);
    expect(accepted.map((r) => r.status)).toEqual([202, 202]);
    ids = accepted.map((r) => r.body.id as string);
    const deps = await createWorkerDeps(stack.api.config);
    try {
      const now = shiftedClock()();
      const xmls = [];
      for (const id of ids)
        xmls.push(
          await sealDocument(
            stack.api.orm.em.fork(),
            await loadDocumentById(stack.api.orm.em.fork(), id),
            deps.loadCsd,
            now,
          ),
        );
      expect(xmls[0]).not.toEqual(xmls[1]);
      const [first, second] = xmls.map((xml) => rootAttributes(xml));
      expect({
        folio: second!.Folio,
        seconds: (Date.parse(first!.Fecha!) - Date.parse(second!.Fecha!)) / 1000,
      }).toEqual({ folio: 'F-0001', seconds: 1 });
    } finally {
      await deps.close();
    }
  } finally {
    await stack.startWorker();
  }
  const uuids = await Promise.all(ids.map(async (id) => (await stamped(account.testKey, id)).uuid));
  expect(new Set(uuids).size).toBe(2);
}, 180_000);

it('two requests with the same body and folio and two Idempotency-Keys get two documents and two UUIDs, both 201', async () => {
  const account = await stampingAccount(stack);
  const answers = await Promise.all([
    post(account.testKey, '/v1/invoices', sameBody(account.merchantId)),
    post(account.testKey, '/v1/invoices', sameBody(account.merchantId)),
  ]);
  expect(answers.map((r) => r.status)).toEqual([201, 201]);
  expect(new Set(answers.map((r) => r.body.uuid)).size).toBe(2);
}, 120_000);

it('two accounts sharing the SAT test CSD, same serie, folio and body at once: two UUIDs, both 201', async () => {
  const [a, b] = await Promise.all([
    stampingAccount(stack, { ...EKU, serie: 'SAME' }),
    stampingAccount(stack, { ...EKU, serie: 'SAME' }),
  ]);
  const answers = await Promise.all([
    post(a!.testKey, '/v1/invoices', sameBody(a!.merchantId)),
    post(b!.testKey, '/v1/invoices', sameBody(b!.merchantId)),
  ]);
  expect(answers.map((r) => r.status)).toEqual([201, 201]);
  expect(new Set(answers.map((r) => r.body.uuid)).size).toBe(2);
}, 120_000);

it("a duplicate_cfdi failure names nothing of the other account's document", async () => {
  const [a, b] = await Promise.all([stampingAccount(stack), stampingAccount(stack)]);
  const theirs = await post(a.testKey, '/v1/invoices', invoiceBody(a.merchantId));
  expect(theirs.status).toBe(201);
  await stack.stopWorker();
  let mine: { body: { id: string } };
  let row: DocumentRow;
  try {
    mine = await post(b.testKey, '/v1/invoices', invoiceBody(b.merchantId), handingOver);
    const stampedXml = (
      (
        await stack.api.orm.em
          .fork()
          .execute('select stamped_xml from documents where id = ?', [theirs.body.id])
      )[0] as { stamped_xml: string }
    ).stamped_xml;
    // As if the PAC answered b's document with a's stamp (an identical CFDI), before b's workflow runs.
    row = await recordStamped(
      stack.api.orm.em.fork(),
      mine.body.id,
      {
        xml: stampedXml,
        uuid: theirs.body.uuid,
      },
      { portalUrl: stack.api.config.api.portalUrl },
    );
  } finally {
    await stack.startWorker();
  }
  expect(row.sat_code).toBe('duplicate_cfdi');
  const seen = JSON.stringify(
    (await stack.api.request('GET', `/v1/invoices/${mine.body.id}`, { key: b.testKey })).body,
  );
  expect(seen).toContain('duplicate_cfdi');
  for (const secret of [theirs.body.id, theirs.body.uuid, a.accountId]) {
    expect(seen).not.toContain(secret);
    expect(row.failure_detail ?? '').not.toContain(secret);
  }
}, 120_000);

it("test mode: a credit note cannot relate another account's document as stamped elsewhere", async () => {
  const [a, b] = await Promise.all([stampingAccount(stack), stampingAccount(stack)]);
  const theirs = await post(a.testKey, '/v1/invoices', invoiceBody(a.merchantId));
  expect(theirs.status).toBe(201);
  const items = [
    { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 100 },
  ];
  const refused = await post(b.testKey, '/v1/credit_notes', {
    merchantId: b.merchantId,
    relatedUuid: theirs.body.uuid,
    receiver: RECEIVER,
    formaPago: '03',
    items,
  });
  expect({
    status: refused.status,
    paths: refused.body.errors?.map((e: { path: string }) => e.path),
  }).toEqual({ status: 400, paths: ['/relatedUuid'] });
  expect(JSON.stringify(refused.body)).not.toContain(theirs.body.id);
  // a's invoice is untouched: it can still be cancelled (no credit note of b's counts against it).
  const cancel = await post(a.testKey, `/v1/invoices/${theirs.body.id}/cancel`, { motivo: '02' });
  expect(cancel.status).toBe(202);
}, 120_000);
