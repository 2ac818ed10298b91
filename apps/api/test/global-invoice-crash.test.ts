import { receiptExpiry } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { globalInvoiceScheduleId } from '@cfdi/temporal-contract';
import { idempotencyKey, stampingAccount, startStack, type StackHarness } from './stack';
import { spawnWorker, stopChild } from './child-processes';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack({ STAMP_WAIT_MS: '0' });
  await stack.stopWorker(); // this suite runs its workers in child processes
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const em = () => stack.api.orm.em.fork();
const count = async (sql: string, params: unknown[]) =>
  ((await em().execute(sql, params))[0] as { n: number }).n;

it('a worker SIGKILLed while the global invoice is at the PAC: one document, one timbre, after a restart', async () => {
  const account = await stampingAccount(stack);
  const patch = await stack.api.request('PATCH', `/v1/merchants/${account.merchantId}`, {
    key: account.testKey,
    body: { globalInvoice: { enabled: true, periodicity: '02' } },
  });
  expect(patch.status).toBe(200);
  // Two sales in the week of Monday 2026-11-09 (Mexico City), long closed on the stack's clock (2026-11-21).
  const receipts: string[] = [];
  for (const [description, soldAt] of [
    ['Café', '2026-11-09T15:00:00Z'],
    ['Pan', '2026-11-15T23:00:00Z'],
  ] as const) {
    const res = await stack.api.request('POST', '/v1/receipts', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: {
        merchantId: account.merchantId,
        formaPago: '01',
        items: [{ productCode: '50192100', unitCode: 'H87', description, quantity: 1, unitPrice: 58 }],
      },
    });
    // With a weekly global invoice, a receipt can be invoiced by its customer until its week's run takes it.
    expect(res.body.expiresAt).toBe(receiptExpiry(new Date(res.body.createdAt), 0, '02').toISOString());
    await em().execute('update receipts set created_at = ? where id = ?', [new Date(soldAt), res.body.id]);
    receipts.push(res.body.id);
  }
  const first = await spawnWorker(stack);
  // The PAC takes 3 s to answer, so the kill lands while the global invoice's stamp call is in flight.
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 3000 } }),
  });
  const schedule = stack.api.deps.temporal.schedule.getHandle(globalInvoiceScheduleId(account.merchantId));
  await schedule.trigger();
  const sealed = async () =>
    (await em().execute(
      `select id from documents where merchant_id = ? and kind = 'global' and sealed_xml is not null`,
      [account.merchantId],
    )) as { id: string }[];
  const [document] = await waitFor(async () => ((await sealed()).length ? sealed() : undefined), {
    what: 'the global invoice sealed',
  });
  await new Promise((resolve) => setTimeout(resolve, 800));
  await stopChild(first, 'SIGKILL');

  const second = await spawnWorker(stack);
  try {
    const stamped = await waitFor(
      async () => {
        const current = (
          await stack.api.request('GET', `/v1/invoices/${document!.id}`, { key: account.testKey })
        ).body;
        return current.status === 'stamped' ? current : undefined;
      },
      { timeoutMs: 60_000, what: 'the global invoice after the restart' },
    );
    expect(stamped).toMatchObject({ kind: 'global', total: 116 });
    // The Schedule fires again: the period is done, nothing new.
    await schedule.trigger();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(
      await count(`select count(*)::int as n from documents where merchant_id = ?`, [account.merchantId]),
    ).toBe(1);
    expect(
      await count(`select count(*)::int as n from transactions where account_id = ? and type = 'consume'`, [
        account.accountId,
      ]),
    ).toBe(1);
    expect(
      await count(`select count(*)::int as n from transactions where account_id = ? and type = 'refund'`, [
        account.accountId,
      ]),
    ).toBe(0);
    for (const id of receipts)
      expect(
        (await stack.api.request('GET', `/v1/receipts/${id}`, { key: account.testKey })).body,
      ).toMatchObject({
        status: 'in_global',
        invoiceId: document!.id,
      });
    expect(
      await count(
        `select count(*)::int as n from events where account_id = ? and type = 'receipt.in_global'`,
        [account.accountId],
      ),
    ).toBe(2);
  } finally {
    await stopChild(second);
    await schedule.delete();
  }
}, 150_000);
