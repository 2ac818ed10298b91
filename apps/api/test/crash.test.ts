import { waitFor } from '@cfdi/testkit';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { freePort } from '@cfdi/devstack';
import { spawnApi, spawnWorker as spawnChild, stopChild } from './child-processes';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack({ STAMP_WAIT_MS: '0' });
  await stack.stopWorker(); // this suite runs its workers in child processes
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const spawnWorker = () => spawnChild(stack);

it('a worker SIGKILLed during the PAC call: after a restart the stamp completes exactly once', async () => {
  const account = await stampingAccount(stack);
  const first = await spawnWorker();
  // The PAC takes 3 s to answer, so the kill lands while the stamp call is in flight.
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 3000 } }),
  });
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(res.status).toBe(202);
  const id = res.body.id as string;
  const em = () => stack.api.orm.em.fork();
  await waitFor(
    async () =>
      ((await em().execute('select sealed_xml from documents where id = ?', [id]))[0] as any).sealed_xml
        ? true
        : undefined,
    { what: 'sealing' },
  );
  await new Promise((resolve) => setTimeout(resolve, 800));
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));

  const second = await spawnWorker();
  try {
    await expectStampedOnce(account, id);
  } finally {
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }
}, 120_000);

it('an API SIGKILLed during its own PAC call: the recovery sweep’s workflow sends the same sealed bytes, one stamp, one charge', async () => {
  const account = await stampingAccount(stack);
  const worker = await spawnWorker();
  const port = await freePort();
  // This API waits for the outcome, so it makes the stamp's first attempt itself.
  const api = await spawnApi(stack, port, { STAMP_WAIT_MS: '20000' });
  try {
    await fetch(`${stack.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 3000 } }),
    });
    const answer = fetch(`http://127.0.0.1:${port}/v1/invoices`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.testKey}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey(),
      },
      body: JSON.stringify(invoiceBody(account.merchantId)),
    }).then(
      () => 'answered',
      () => 'connection lost',
    );
    const em = () => stack.api.orm.em.fork();
    const sealed = await waitFor(
      async () =>
        (
          await em().execute(
            "select id from documents where account_id = ? and sealed_xml is not null and status = 'stamping'",
            [account.accountId],
          )
        )[0] as { id: string } | undefined,
      { what: 'the API sealing the document' },
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    api.kill('SIGKILL');
    expect(await answer).toBe('connection lost');
    // No workflow was started: the API was stamping it itself. The PAC goes on and stamps what it received.
    await expect(
      stack.api.deps.temporal.workflow.getHandle(`stamp-${sealed.id}`).describe(),
    ).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await em().execute('select status from documents where id = ?', [sealed.id]))[0]).toEqual({
      status: 'stamping',
    });
    // A minute later the sweep finds it without a workflow and starts one.
    await em().execute("update documents set created_at = created_at - interval '2 minutes' where id = ?", [
      sealed.id,
    ]);
    const sweep = await stack.api.deps.temporal.workflow.execute('resumeStalledWorkflow', {
      taskQueue: stack.taskQueue,
      workflowId: `resume-stalled-crash-${sealed.id}`,
    });
    expect(sweep.resumed).toBeGreaterThanOrEqual(1);
    await expectStampedOnce(account, sealed.id);
  } finally {
    await stopChild(api, 'SIGKILL');
    await stopChild(worker);
  }
}, 120_000);

/** Stamped, charged once and never refunded; the PAC holds one stamp for the sealed bytes, the one recorded. */
async function expectStampedOnce(account: Awaited<ReturnType<typeof stampingAccount>>, id: string) {
  const em = () => stack.api.orm.em.fork();
  const stamped = await waitFor(
    async () => {
      const current = (await stack.api.request('GET', `/v1/invoices/${id}`, { key: account.testKey })).body;
      return current.status === 'stamped' ? current : undefined;
    },
    { timeoutMs: 60_000, what: 'the stamp after the restart' },
  );
  expect(stamped.uuid).toMatch(/^[0-9A-F-]{36}$/);
  expect(stamped.needsReconciliation).toBe(false);
  const count = async (type: string) =>
    (
      (
        await em().execute(`select count(*)::int as n from transactions where account_id = ? and type = ?`, [
          account.accountId,
          type,
        ])
      )[0] as { n: number }
    ).n;
  expect(await count('consume')).toBe(1);
  expect(await count('refund')).toBe(0);
  // Asking the PAC again returns the same UUID as a previous stamp.
  const { FinkokPac } = await import('@cfdi/pac');
  const { SANDBOX_CREDENTIALS } = await import('@cfdi/services');
  const pac = new FinkokPac({ url: stack.sandbox.url, ...SANDBOX_CREDENTIALS });
  try {
    const sealed = ((await em().execute('select sealed_xml from documents where id = ?', [id]))[0] as any)
      .sealed_xml;
    expect(await pac.stamp(sealed)).toMatchObject({
      outcome: 'stamped',
      uuid: stamped.uuid,
      previouslyStamped: true,
    });
  } finally {
    pac.close();
  }
}

it('a stamp the PAC hands back for another document (an identical CFDI) fails this one as duplicate_cfdi, refunded', async () => {
  const { recordStamped } = await import('@cfdi/services');
  const account = await stampingAccount(stack);
  const worker = await spawnWorker();
  let first: any;
  try {
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    first = await waitFor(
      async () => {
        const current = (
          await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey })
        ).body;
        return current.status === 'stamped' ? current : undefined;
      },
      { what: 'the first invoice' },
    );
  } finally {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  // No worker now: the second document stays `stamping` until we record the PAC's (duplicate) answer ourselves.
  const second = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(second.status).toBe(202);
  const em = stack.api.orm.em.fork();
  const stampedXml = (
    (await em.execute('select stamped_xml from documents where id = ?', [first.id]))[0] as any
  ).stamped_xml;
  const row = await recordStamped(
    stack.api.orm.em.fork(),
    second.body.id,
    {
      xml: stampedXml,
      uuid: first.uuid,
    },
    { portalUrl: stack.api.config.api.portalUrl },
  );
  expect(row).toMatchObject({ status: 'stamp_failed', sat_code: 'duplicate_cfdi', uuid: null });
  const entries = await em.execute(
    `select type from transactions where account_id = ? and type in ('consume', 'refund') order by seq`,
    [account.accountId],
  );
  expect(entries.map((e: any) => e.type)).toEqual(['consume', 'consume', 'refund']);
  expect(
    (await stack.api.request('GET', `/v1/invoices/${first.id}`, { key: account.testKey })).body,
  ).toMatchObject({ status: 'stamped', uuid: first.uuid });
}, 120_000);
