import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { auditLedger, getBalanceCentavos } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { startApi, type ApiHarness } from './harness';
import {
  idempotencyKey,
  invoiceBody,
  shiftedClock,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

let stack: StackHarness;
/**
 * An API replica that cannot start workflows (its Temporal namespace does not exist), beside a healthy stack. It does
 * not wait for outcomes (STAMP_WAIT_MS=0), so it hands every stamp to a workflow instead of attempting it itself.
 */
let cutOff: ApiHarness;
beforeAll(async () => {
  stack = await startStack();
  cutOff = await startApi(
    {
      PAC_SANDBOX_URL: stack.sandbox.url,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      TEMPORAL_NAMESPACE: `missing-${randomBytes(4).toString('hex')}`,
      STAMP_WAIT_MS: '0',
    },
    { now: shiftedClock() },
  );
}, 60_000);
afterAll(async () => {
  await cutOff?.close();
  await stack?.close();
}, 60_000);

const db = () => stack.api.orm.em.fork();
const ledger = async (accountId: string) =>
  (
    (await db().execute(
      "select type, reference_type from transactions where account_id = ? and livemode = false and type <> 'seed' order by seq",
      [accountId],
    )) as { type: string; reference_type: string }[]
  ).map((entry) => `${entry.type}:${entry.reference_type}`);
/** The document's age as the sweep sees it: older than the minute the API has to start the workflow itself. */
const ageOverAMinute = (documentId: string) =>
  db().execute("update documents set created_at = created_at - interval '2 minutes' where id = ?", [
    documentId,
  ]);
const sweep = () =>
  stack.api.deps.temporal.workflow.execute('resumeStalledWorkflow', {
    taskQueue: stack.taskQueue,
    workflowId: `resume-stalled-test-${randomBytes(4).toString('hex')}`,
  }) as Promise<{ checked: number; resumed: number }>;
const runs = async (workflowId: string) => {
  let count = 0;
  for await (const _ of stack.api.deps.temporal.workflow.list({
    query: `WorkflowId = '${workflowId}'`,
  }))
    count++;
  return count;
};
/** Visibility lags the runs a little: wait for the first to show, then count them all. */
const runsOnceVisible = async (workflowId: string) => {
  await waitFor(async () => ((await runs(workflowId)) > 0 ? true : undefined), {
    what: `${workflowId} in visibility`,
  });
  return runs(workflowId);
};
const invoice = (key: string, id: string) => stack.api.request('GET', `/v1/invoices/${id}`, { key });
const untilStamped = (key: string, id: string) =>
  waitFor(
    async () => {
      const res = await invoice(key, id);
      return res.body.status === 'stamped' && res.body.files.status === 'ready' ? res.body : undefined;
    },
    { what: `${id} stamped with its files`, timeoutMs: 30_000 },
  );

/**
 * As if the API had died after committing the document, before storing its answer: the key is still claimed, bound
 * to the document, and its claim has run out.
 */
const crashedBeforeAnswering = (accountId: string, key: string) =>
  db().execute(
    `update idempotency_keys set state = 'in_flight', response_status = null, response_body = null, locked_until = now() - interval '1 second'
    where account_id = ? and key = ?`,
    [accountId, key],
  );

/** An invoice posted to the cut-off replica: accepted (202) and charged, with no workflow behind it. */
async function acceptedWithoutWorkflow(account: Awaited<ReturnType<typeof stampingAccount>>) {
  const headers = { 'idempotency-key': idempotencyKey() };
  const body = invoiceBody(account.merchantId);
  const accepted = await cutOff.request('POST', '/v1/invoices', { key: account.testKey, headers, body });
  expect(accepted.status).toBe(202);
  return { headers, body, accepted };
}

it('accepts a document while Temporal cannot start its workflow (202, one charge), and the recovery sweep stamps it once', async () => {
  const account = await stampingAccount(stack);
  const { headers, body, accepted } = await acceptedWithoutWorkflow(account);
  expect(accepted.body).toMatchObject({
    object: 'invoice',
    status: 'stamping',
    uuid: null,
    files: { status: 'pending' },
  });
  const again = await cutOff.request('POST', '/v1/invoices', { key: account.testKey, headers, body });
  expect({
    status: again.status,
    replayed: again.headers.get('idempotency-replayed'),
    id: again.body.id,
  }).toEqual({ status: 202, replayed: 'true', id: accepted.body.id });
  expect(
    (await stack.api.request('GET', '/v1/invoices', { key: account.testKey })).body.data.map(
      (d: { id: string }) => d.id,
    ),
  ).toEqual([accepted.body.id]);
  expect(await ledger(account.accountId)).toEqual(['consume:invoice']);

  // Young documents are the API's: the sweep leaves this one alone.
  await sweep();
  expect(await runs(`stamp-${accepted.body.id}`)).toBe(0);

  await ageOverAMinute(accepted.body.id);
  const metrics = await (await fetch(`${stack.api.url}/metrics`)).text();
  expect(
    Number(/^cfdi_work_without_workflow\{work="stamping"\} (\d+)$/m.exec(metrics)?.[1]),
  ).toBeGreaterThanOrEqual(1);
  expect((await sweep()).resumed).toBeGreaterThanOrEqual(1);
  const stamped = await untilStamped(account.testKey, accepted.body.id);
  expect(stamped.uuid).toMatch(/^[0-9A-F-]{36}$/);

  // Stamped documents are no longer the sweep's business: nothing runs twice, nothing is charged twice.
  await sweep();
  expect(await runsOnceVisible(`stamp-${accepted.body.id}`)).toBe(1);
  expect(await ledger(account.accountId)).toEqual(['consume:invoice']);
  expect(await getBalanceCentavos(db(), { accountId: account.accountId, livemode: false })).toBe(
    100_000 - 100,
  );
}, 60_000);

it("keeps the amounts the stamped XML carries when the worker's engine computes the accepted request differently (a deploy in between)", async () => {
  const account = await stampingAccount(stack);
  const accepted = await cutOff.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId, { metodoPago: 'PPD', formaPago: '99' }),
  });
  expect(accepted.status).toBe(202);
  const amounts = async () =>
    (
      await db().execute('select total, saldo_pendiente from documents where id = ?', [accepted.body.id])
    )[0] as { total: string; saldo_pendiente: string };
  expect(await amounts()).toEqual({ total: '26700.00', saldo_pendiente: '26700.00' });
  // The worker's engine reads the stored request as one laptop instead of two.
  await db().execute(
    `update documents set input = jsonb_set(input, '{items,0,quantity}', '1') where id = ?`,
    [accepted.body.id],
  );
  await ageOverAMinute(accepted.body.id);
  expect((await sweep()).resumed).toBeGreaterThanOrEqual(1);
  const stamped = await untilStamped(account.testKey, accepted.body.id);
  const xml = (
    (await db().execute('select stamped_xml from documents where id = ?', [accepted.body.id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;
  expect(/<cfdi:Comprobante\b[^>]*\sTotal="([^"]+)"/.exec(xml)?.[1]).toBe('15100.00');
  expect(stamped).toMatchObject({ total: 15100, saldoPendiente: 15100 });
}, 60_000);

it('answers a retry after a crash between accepting and answering by stamping it then: 201, one charge', async () => {
  const account = await stampingAccount(stack);
  const { headers, body, accepted } = await acceptedWithoutWorkflow(account);
  await crashedBeforeAnswering(account.accountId, headers['idempotency-key']);

  const retried = await stack.api.request('POST', '/v1/invoices', { key: account.testKey, headers, body });
  expect({ status: retried.status, id: retried.body.id, state: retried.body.status }).toEqual({
    status: 201,
    id: accepted.body.id,
    state: 'stamped',
  });
  // The retry's API stamped it itself: no workflow was needed.
  await expect(
    stack.api.deps.temporal.workflow.getHandle(`stamp-${accepted.body.id}`).describe(),
  ).rejects.toThrow(WorkflowNotFoundError);
  expect(await ledger(account.accountId)).toEqual(['consume:invoice']);
}, 60_000);

it('answers 422 sat_rejected with the reason as satCode, and refunds, when the CSD vanished before the document was sealed', async () => {
  const account = await stampingAccount(stack);
  const { headers, body, accepted } = await acceptedWithoutWorkflow(account);
  await crashedBeforeAnswering(account.accountId, headers['idempotency-key']);
  await db().execute('delete from merchant_csds where merchant_id = ?', [account.merchantId]);

  const retried = await stack.api.request('POST', '/v1/invoices', { key: account.testKey, headers, body });
  expect({ status: retried.status, code: retried.body.code, satCode: retried.body.satCode }).toEqual({
    status: 422,
    code: 'sat_rejected',
    satCode: 'csd_unavailable',
  });
  expect((await invoice(account.testKey, accepted.body.id)).body).toMatchObject({
    status: 'stamp_failed',
    failure: { code: 'csd_unavailable' },
  });
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'refund:invoice']);
}, 60_000);

it('records a cancellation while Temporal cannot start its workflow (202 pending, one charge), and the sweep sends it', async () => {
  const account = await stampingAccount(stack);
  // At most 1,000 MXN: the SAT cancels it without the receiver's acceptance.
  const small = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId, {
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Mouse', quantity: 1, unitPrice: 580 },
      ],
    }),
  });
  expect(small.status).toBe(201);
  const id: string = small.body.id;

  const accepted = await cutOff.request('POST', `/v1/invoices/${id}/cancel`, {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: { motivo: '02' },
  });
  expect(accepted.status).toBe(202);
  expect(accepted.body).toMatchObject({
    id,
    status: 'stamped',
    cancellation: { motivo: '02', status: 'pending', resolvedAt: null },
  });
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'consume:cancellation']);

  await sweep();
  expect(await runs(`cancel-${id}`)).toBe(0);
  // Hours later the ledger audit reports the cancellation's timbre as reserved without an outcome.
  await db().execute("update documents set updated_at = updated_at - interval '3 hours' where id = ?", [id]);
  const { report: audit } = await auditLedger(db());
  expect(audit.violations.filter((v) => v.accountId === account.accountId)).toEqual([
    expect.objectContaining({
      rule: 'stale_reservation',
      detail: expect.stringContaining(`${id}: cancellation reserved`),
    }),
  ]);
  expect((await sweep()).resumed).toBeGreaterThanOrEqual(1);
  const cancelled = await waitFor(
    async () => {
      const res = await invoice(account.testKey, id);
      return res.body.status === 'cancelled' ? res.body : undefined;
    },
    { what: `${id} cancelled`, timeoutMs: 30_000 },
  );
  expect(cancelled.cancellation).toMatchObject({
    motivo: '02',
    status: 'accepted',
    acuse: { codigo: '201' },
  });

  await sweep();
  expect(await runsOnceVisible(`cancel-${id}`)).toBe(1);
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'consume:cancellation']);
}, 60_000);
