import { randomBytes } from 'node:crypto';
import { emitEvent } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { verifyWebhook } from '@cfdi/webhook-verify';
import {
  ensureWebhookDispatchSchedule,
  webhookDeliveryWorkflowId,
  webhookDispatchScheduleId,
} from '@cfdi/temporal-contract/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { startReceiver, type Receiver } from './webhook-receiver';
import { spawnWorker, stopChild } from './child-processes';

let stack: StackHarness;
let receiver: Receiver;
beforeAll(async () => {
  stack = await startStack({
    // 202 after 3 s (one test delays the PAC past it); retries 1 s apart; cancellations polled every second.
    STAMP_WAIT_MS: '3000',
    WEBHOOK_RETRY_FIRST_SECONDS: '1',
    WEBHOOK_RETRY_MAX_SECONDS: '1',
    CANCELLATION_FIRST_POLL_SECONDS: '1',
    CANCELLATION_MAX_POLL_SECONDS: '1',
  });
  await ensureWebhookDispatchSchedule(stack.api.deps.temporal, stack.taskQueue, {
    runForMs: 60_000,
    intervalMs: 200,
    eventRetentionDays: 30,
  });
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await stack?.api.deps.temporal.schedule
    .getHandle(webhookDispatchScheduleId(stack.taskQueue))
    .delete()
    .catch(() => undefined);
  await receiver?.close();
  await stack?.close();
}, 60_000);
afterEach(async () => {
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
});

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const api = (method: string, path: string, key: string, body?: unknown) =>
  stack.api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
const post = (key: string, path: string, body: unknown) =>
  stack.api.request('POST', path, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const newPath = () => `/hooks/${randomBytes(4).toString('hex')}`;

async function endpoint(key: string, path: string, enabledEvents: string[] = ['*']) {
  const res = await api('POST', '/v1/webhook_endpoints', key, { url: receiver.url(path), enabledEvents });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function statusOf(account: Account, id: string, status: string) {
  return waitFor(
    async () => {
      const current = (await api('GET', `/v1/invoices/${id}`, account.testKey)).body;
      return current.status === status ? current : undefined;
    },
    { timeoutMs: 60_000, what: `${id} to be ${status}` },
  );
}

async function stampedInvoice(account: Account, overrides: Record<string, unknown> = {}) {
  const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId, overrides));
  expect([201, 202]).toContain(res.status);
  return statusOf(account, res.body.id, 'stamped');
}

const ofType = (type: string, objectId?: string) => (r: { event: any }) =>
  r.event.type === type && (!objectId || r.event.data.object.id === objectId);

async function attemptsOf(key: string, endpointId: string, count: number) {
  return waitFor(
    async () => {
      const list = (await api('GET', `/v1/webhook_endpoints/${endpointId}/attempts?limit=100`, key)).body;
      return list.data.length >= count ? list.data : undefined;
    },
    { timeoutMs: 60_000, what: `${count} attempts on ${endpointId}` },
  );
}

it('a stamp delivers invoice.stamped: signed with the secret, fresh, with CFDI-Event-Id, the invoice as GET shows it', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  expect(hook.secret).toMatch(/^whsec_/);
  const invoice = await stampedInvoice(account);

  const [delivery] = await receiver.waitFor(path, 1, ofType('invoice.stamped', invoice.id));
  const event = verifyWebhook<any>(
    delivery!.rawBody,
    delivery!.headers['cfdi-signature'] as string,
    hook.secret,
  );
  const signedAt = Number(/t=(\d+)/.exec(delivery!.headers['cfdi-signature'] as string)![1]);
  expect(Math.abs(Date.now() / 1000 - signedAt)).toBeLessThan(120);
  expect(delivery!.headers['content-type']).toBe('application/json');
  expect(delivery!.headers['cfdi-event-id']).toBe(event.id);
  expect(event).toMatchObject({
    id: expect.stringMatching(/^evt_/),
    object: 'event',
    type: 'invoice.stamped',
    livemode: false,
    createdAt: expect.any(String),
  });
  const { files, ...resource } = invoice;
  expect(event.data.object).toMatchObject({ ...resource, status: 'stamped' });
  expect(event.data.object.files).toEqual({ status: expect.any(String) });
  expect(JSON.stringify(event)).not.toContain('/files/');
  expect(files.status).toBeDefined();
  expect(() =>
    verifyWebhook(delivery!.rawBody, delivery!.headers['cfdi-signature'] as string, 'whsec_wrong'),
  ).toThrow();

  // The event is listed and retrievable as delivered, with its successful attempt.
  expect((await api('GET', `/v1/events/${event.id}`, account.testKey)).body).toEqual(
    JSON.parse(delivery!.rawBody),
  );
  const listed = await api('GET', '/v1/events?type=invoice.stamped', account.testKey);
  expect(listed.body.data.map((e: any) => e.id)).toContain(event.id);
  const attempts = await attemptsOf(account.testKey, hook.id, 1);
  expect(attempts[0]).toMatchObject({
    object: 'webhook_attempt',
    eventId: event.id,
    webhookEndpointId: hook.id,
    statusCode: 200,
    succeeded: true,
    error: null,
  });
  expect(attempts[0].responseBody).toHaveLength(1024);
  expect((await api('GET', `/v1/events/${event.id}/attempts`, account.testKey)).body.data).toHaveLength(1);
}, 120_000);

it('a receiver answering 500 twice then 200 gets three attempts, all recorded', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  receiver.plan(path, [500, 500, 200]);
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  const invoice = await stampedInvoice(account);
  const deliveries = await receiver.waitFor(path, 3, ofType('invoice.stamped', invoice.id));
  expect(new Set(deliveries.map((d) => d.headers['cfdi-event-id'])).size).toBe(1);
  const attempts = await attemptsOf(account.testKey, hook.id, 3);
  expect(attempts.map((a: any) => [a.statusCode, a.succeeded])).toEqual([
    [200, true],
    [500, false],
    [500, false],
  ]);
  expect(attempts[2].responseBody).toMatch(/^answer 500/);
  expect(attempts.every((a: any) => a.durationMs >= 0 && a.eventId === deliveries[0]!.event.id)).toBe(true);
  expect((await api('GET', `/v1/webhook_endpoints/${hook.id}`, account.testKey)).body).toMatchObject({
    disabled: false,
    failingSince: null,
  });
}, 120_000);

const deliveryWorkflow = (eventId: string, endpointId: string) =>
  stack.api.deps.temporal.workflow.getHandle(webhookDeliveryWorkflowId(eventId, endpointId));

it('the dispatcher makes the first attempt itself; only a delivery whose first attempt failed gets a retrying workflow', async () => {
  const account = await stampingAccount(stack);
  const [pathOk, pathRetry] = [newPath(), newPath()];
  receiver.plan(pathRetry, [503, 200]);
  const ok = await endpoint(account.testKey, pathOk, ['invoice.stamped']);
  const retried = await endpoint(account.testKey, pathRetry, ['invoice.stamped']);
  const invoice = await stampedInvoice(account);
  const [first] = await receiver.waitFor(pathOk, 1, ofType('invoice.stamped', invoice.id));
  const eventId = first!.event.id as string;
  await receiver.waitFor(pathRetry, 2, ofType('invoice.stamped', invoice.id));
  await expect(deliveryWorkflow(eventId, ok.id).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  // The workflow starts after the failed first attempt: it makes the second and counts both.
  expect(await deliveryWorkflow(eventId, retried.id).result()).toEqual({ outcome: 'delivered', attempts: 2 });
  expect((await attemptsOf(account.testKey, retried.id, 2)).map((a: any) => a.statusCode)).toEqual([
    200, 503,
  ]);
  expect((await attemptsOf(account.testKey, ok.id, 1)).map((a: any) => a.statusCode)).toEqual([200]);
}, 120_000);

it('a dispatcher that died holding events: once its lease runs out, workflows deliver what it had not delivered, nothing twice', async () => {
  const account = await stack.api.newAccount();
  const [pathDone, pathLeft] = [newPath(), newPath()];
  const done = await endpoint(account.testKey, pathDone, ['invoice.stamped']);
  const left = await endpoint(account.testKey, pathLeft, ['invoice.stamped']);
  // As a dead dispatcher leaves it: the event claimed under a lease that has run out, one endpoint's delivery made.
  const eventId = await stack.api.orm.em.fork().transactional(async (tx) => {
    const id = await emitEvent(tx, { accountId: account.accountId, livemode: false }, 'invoice.stamped', {
      id: 'inv_leased',
      object: 'invoice',
    });
    await tx.execute("update events set dispatch_lease_until = now() - interval '1 second' where id = ?", [
      id,
    ]);
    await tx.execute(
      `insert into webhook_attempts (id, account_id, livemode, event_id, endpoint_id, url, redelivery, status_code, duration_ms, succeeded)
       values (?, ?, false, ?, ?, ?, false, 200, 5, true)`,
      [`wha_${randomBytes(8).toString('hex')}`, account.accountId, id, done.id, receiver.url(pathDone)],
    );
    return id;
  });
  await receiver.waitFor(pathLeft, 1, (r) => r.event.id === eventId);
  expect(await deliveryWorkflow(eventId, left.id).result()).toEqual({ outcome: 'delivered', attempts: 1 });
  await waitFor(
    async () =>
      (
        (
          await stack.api.orm.em.fork().execute('select delivered_at from events where id = ?', [eventId])
        )[0] as any
      ).delivered_at ?? undefined,
  );
  await expect(deliveryWorkflow(eventId, done.id).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  expect(receiver.at(pathDone)).toHaveLength(0);
}, 120_000);

it('a redirect, a reset connection and a receiver that hangs past 10 s are failures retried until a 2xx', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  receiver.plan(path, [302, 'reset', 'hang', 204]);
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  await stampedInvoice(account);
  const attempts = await attemptsOf(account.testKey, hook.id, 4);
  expect(attempts.map((a: any) => a.statusCode)).toEqual([204, null, null, 302]);
  expect(attempts[3].error).toMatch(/redirect to http:\/\/127\.0\.0\.1:1\/elsewhere not followed/);
  expect(attempts[2].error).toMatch(/ECONNRESET|socket hang up/);
  expect(attempts[1].error).toBe('no answer within 10 s');
  expect(attempts[1].durationMs).toBeGreaterThanOrEqual(9_900);
  expect(receiver.at(path)).toHaveLength(4);
}, 120_000);

it('410 Gone disables the endpoint at once and records endpoint.disabled; nothing more is sent to it', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  receiver.plan(path, [410]);
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  await stampedInvoice(account);
  await attemptsOf(account.testKey, hook.id, 1);
  const disabled = await waitFor(
    async () => {
      const current = (await api('GET', `/v1/webhook_endpoints/${hook.id}`, account.testKey)).body;
      return current.disabled ? current : undefined;
    },
    { what: 'the endpoint to be disabled' },
  );
  expect(disabled).toMatchObject({ disabled: true, disabledReason: 'gone' });
  const events = (await api('GET', '/v1/events?type=endpoint.disabled', account.testKey)).body.data;
  expect(events).toHaveLength(1);
  expect(events[0].data.object).toMatchObject({
    id: hook.id,
    object: 'webhook_endpoint',
    disabled: true,
    disabledReason: 'gone',
  });
  expect(JSON.stringify(events[0])).not.toContain('whsec_');

  await stampedInvoice(account);
  const second = (await api('GET', '/v1/events?type=invoice.stamped&limit=1', account.testKey)).body.data[0];
  // Give the dispatcher time to (wrongly) start a delivery: the event is dispatched, and the endpoint got nothing.
  await waitFor(
    async () =>
      (
        (
          await stack.api.orm.em.fork().execute('select delivered_at from events where id = ?', [second.id])
        )[0] as any
      ).delivered_at ?? undefined,
  );
  expect(receiver.at(path)).toHaveLength(1);
  // Enabled again, it takes a redelivery.
  expect(
    (await api('PATCH', `/v1/webhook_endpoints/${hook.id}`, account.testKey, { disabled: false })).body,
  ).toMatchObject({ disabled: false, disabledReason: null });
  receiver.plan(path, [200]);
  expect((await api('POST', `/v1/events/${second.id}/redeliver`, account.testKey, {})).status).toBe(202);
  await receiver.waitFor(path, 1, (r) => r.event.id === second.id);
}, 120_000);

it('an endpoint failing for 3 days straight is disabled by its next failure, with endpoint.disabled', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  receiver.plan(path, [503]);
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  // As if every attempt had failed since three days and a minute ago (the window is WEBHOOK_RETRY_WINDOW_SECONDS).
  await stack.api.orm.em
    .fork()
    .execute("update webhook_endpoints set failing_since = now() - interval '3 days 1 minute' where id = ?", [
      hook.id,
    ]);
  await stampedInvoice(account);
  const disabled = await waitFor(
    async () => {
      const current = (await api('GET', `/v1/webhook_endpoints/${hook.id}`, account.testKey)).body;
      return current.disabled ? current : undefined;
    },
    { timeoutMs: 60_000, what: 'the endpoint to be disabled' },
  );
  expect(disabled).toMatchObject({ disabledReason: 'failing', failingSince: expect.any(String) });
  expect((await api('GET', '/v1/events?type=endpoint.disabled', account.testKey)).body.data).toHaveLength(1);
  expect(receiver.at(path)).toHaveLength(1);
}, 120_000);

it('redeliver sends the event again with the same id, to every subscribed endpoint or the one named', async () => {
  const account = await stampingAccount(stack);
  const [pathA, pathB] = [newPath(), newPath()];
  const hookA = await endpoint(account.testKey, pathA, ['invoice.stamped']);
  const hookB = await endpoint(account.testKey, pathB, ['*']);
  const invoice = await stampedInvoice(account);
  const [first] = await receiver.waitFor(pathA, 1, ofType('invoice.stamped', invoice.id));
  await receiver.waitFor(pathB, 1, ofType('invoice.stamped', invoice.id));
  const eventId = first!.event.id as string;

  const res = await api('POST', `/v1/events/${eventId}/redeliver`, account.testKey, {
    webhookEndpointId: hookA.id,
  });
  expect(res).toMatchObject({
    status: 202,
    body: { object: 'event_redelivery', eventId, webhookEndpointIds: [hookA.id] },
  });
  const again = await receiver.waitFor(pathA, 2, (r) => r.event.id === eventId);
  expect(again[1]!.rawBody).toBe(again[0]!.rawBody);
  expect(again[1]!.headers['cfdi-event-id']).toBe(eventId);
  const attempts = await attemptsOf(account.testKey, hookA.id, 2);
  expect(attempts.map((a: any) => a.redelivery)).toEqual([true, false]);

  // Without an endpoint: every enabled endpoint subscribed to the type (and only them).
  expect(
    (await api('POST', `/v1/events/${eventId}/redeliver`, account.testKey)).body.webhookEndpointIds.sort(),
  ).toEqual([hookA.id, hookB.id].sort());
  await receiver.waitFor(pathB, 2, (r) => r.event.id === eventId);
  expect((await api('POST', '/v1/events/evt_missing/redeliver', account.testKey)).status).toBe(404);
}, 120_000);

it('a rotated secret keeps signing beside the new one for 24 h: two v1 signatures, each verifying with its secret', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
  const rotated = await api('POST', `/v1/webhook_endpoints/${hook.id}/rotate_secret`, account.testKey);
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toMatch(/^whsec_/);
  expect(rotated.body.secret).not.toBe(hook.secret);
  const expires = Date.parse(rotated.body.previousSecretExpiresAt) - Date.now();
  expect(expires).toBeGreaterThan(23.9 * 3600_000);
  expect(expires).toBeLessThanOrEqual(24 * 3600_000);
  expect((await api('GET', `/v1/webhook_endpoints/${hook.id}`, account.testKey)).body.secret).toBeUndefined();

  await stampedInvoice(account);
  const [delivery] = await receiver.waitFor(path, 1);
  const header = delivery!.headers['cfdi-signature'] as string;
  expect(header.match(/v1=/g)).toHaveLength(2);
  expect(verifyWebhook(delivery!.rawBody, header, rotated.body.secret)).toBeTruthy();
  expect(verifyWebhook(delivery!.rawBody, header, hook.secret)).toBeTruthy();

  // Once the window has passed, only the new secret signs.
  await stack.api.orm.em
    .fork()
    .execute(
      "update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ?",
      [hook.id],
    );
  const [id] = [(await api('GET', '/v1/events?limit=1', account.testKey)).body.data[0].id];
  await api('POST', `/v1/events/${id}/redeliver`, account.testKey);
  const [, later] = await receiver.waitFor(path, 2);
  expect((later!.headers['cfdi-signature'] as string).match(/v1=/g)).toHaveLength(1);
  expect(() =>
    verifyWebhook(later!.rawBody, later!.headers['cfdi-signature'] as string, hook.secret),
  ).toThrow();
}, 120_000);

it('a 202 stamp that finishes later delivers invoice.stamped', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  await endpoint(account.testKey, path, ['invoice.stamped']);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 6000 } }),
  });
  const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
  expect(res.body).toMatchObject({ status: 'stamping' });
  expect(res.status).toBe(202);
  const [delivery] = await receiver.waitFor(path, 1, ofType('invoice.stamped', res.body.id));
  expect(delivery!.event.data.object).toMatchObject({
    id: res.body.id,
    status: 'stamped',
    uuid: expect.stringMatching(/^[0-9A-F-]{36}$/),
  });
}, 120_000);

it('an ambiguous stamp delivers invoice.needs_reconciliation', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  await endpoint(account.testKey, path, ['invoice.needs_reconciliation']);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'reset', count: 1 }),
  });
  const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
  expect(res.status).toBe(202);
  const [delivery] = await receiver.waitFor(path, 1, ofType('invoice.needs_reconciliation', res.body.id));
  expect(delivery!.event.data.object).toMatchObject({
    id: res.body.id,
    status: 'stamping',
    needsReconciliation: true,
  });
}, 120_000);

it('a cancellation that waits for the receiver delivers invoice.cancel_pending, then invoice.cancelled', async () => {
  const account = await stampingAccount(stack);
  const path = newPath();
  await endpoint(account.testKey, path, ['invoice.cancel_pending', 'invoice.cancelled']);
  const invoice = await stampedInvoice(account);
  expect((await post(account.testKey, `/v1/invoices/${invoice.id}/cancel`, { motivo: '02' })).status).toBe(
    202,
  );
  const [pending] = await receiver.waitFor(path, 1, ofType('invoice.cancel_pending', invoice.id));
  expect(pending!.event.data.object).toMatchObject({
    status: 'cancel_pending',
    cancellation: { status: 'pending', acuse: { codigo: '201' } },
  });
  expect(JSON.stringify(pending!.event)).not.toContain('xmlUrl');
  expect(
    (await fetch(`${stack.sandbox.url}/sandbox/receiver/${invoice.uuid}/accept`, { method: 'POST' })).status,
  ).toBe(200);
  const [cancelled] = await receiver.waitFor(path, 1, ofType('invoice.cancelled', invoice.id));
  expect(cancelled!.event.data.object).toMatchObject({
    status: 'cancelled',
    cancellation: { status: 'accepted' },
  });
  expect(receiver.at(path).map((d) => d.event.type)).toEqual(['invoice.cancel_pending', 'invoice.cancelled']);
}, 120_000);

it('another account (or the other mode) cannot see, change or redeliver the endpoint or its events: 404', async () => {
  const owner = await stampingAccount(stack);
  const other = await stack.api.newAccount();
  const path = newPath();
  const hook = await endpoint(owner.testKey, path, ['invoice.stamped']);
  await stampedInvoice(owner);
  const [delivery] = await receiver.waitFor(path, 1);
  const eventId = delivery!.event.id as string;
  for (const key of [other.testKey, owner.liveKey]) {
    for (const [method, url, body] of [
      ['GET', `/v1/webhook_endpoints/${hook.id}`],
      ['PATCH', `/v1/webhook_endpoints/${hook.id}`, { description: 'x' }],
      ['DELETE', `/v1/webhook_endpoints/${hook.id}`],
      ['POST', `/v1/webhook_endpoints/${hook.id}/rotate_secret`],
      ['GET', `/v1/webhook_endpoints/${hook.id}/attempts`],
      ['GET', `/v1/events/${eventId}`],
      ['GET', `/v1/events/${eventId}/attempts`],
      ['POST', `/v1/events/${eventId}/redeliver`],
      ['POST', `/v1/events/${eventId}/redeliver`, { webhookEndpointId: hook.id }],
    ] as [string, string, unknown?][]) {
      const res = await api(method, url, key, body);
      expect({ method, url, status: res.status, code: res.body.code }).toEqual({
        method,
        url,
        status: 404,
        code: 'not_found',
      });
    }
    expect((await api('GET', '/v1/webhook_endpoints', key)).body.data).toEqual([]);
    expect((await api('GET', '/v1/events', key)).body.data.map((e: any) => e.id)).not.toContain(eventId);
  }
  expect(receiver.at(path)).toHaveLength(1);
  expect((await api('GET', `/v1/webhook_endpoints/${hook.id}`, owner.testKey)).body.description).toBeNull();
}, 120_000);

it('bad input: invalid URL, unknown event types (named), private addresses in live mode, a 17th endpoint: 400 with the path', async () => {
  const account = await stack.api.newAccount();
  const create = (key: string, body: unknown) => api('POST', '/v1/webhook_endpoints', key, body);
  const errorsOf = (res: { status: number; body: any }) => ({
    status: res.status,
    paths: res.body.errors?.map((e: any) => e.path),
  });

  expect(errorsOf(await create(account.testKey, { url: 'not a url', enabledEvents: ['*'] }))).toEqual({
    status: 400,
    paths: ['/url'],
  });
  const unknown = await create(account.testKey, {
    url: receiver.url('/x'),
    enabledEvents: ['invoice.stamped', 'invoice.paid', 'nomina.stamped', 'bogus'],
  });
  expect(errorsOf(unknown)).toEqual({ status: 400, paths: ['/enabledEvents/1', '/enabledEvents/3'] });
  expect(unknown.body.errors[0].message).toContain('"invoice.paid"');
  expect(errorsOf(await create(account.testKey, { url: receiver.url('/x'), enabledEvents: [] }))).toEqual({
    status: 400,
    paths: ['/enabledEvents'],
  });
  expect(
    errorsOf(await create(account.testKey, { url: receiver.url('/x'), enabledEvents: ['*'], extra: 1 })),
  ).toEqual({ status: 400, paths: ['/extra'] });
  expect(
    errorsOf(await create(account.testKey, { url: 'http://10.0.0.1/hook', enabledEvents: ['*'] })),
  ).toEqual({ status: 400, paths: ['/url'] });
  expect(
    errorsOf(await create(account.testKey, { url: 'ftp://127.0.0.1/hook', enabledEvents: ['*'] })),
  ).toEqual({ status: 400, paths: ['/url'] });

  for (const url of [
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://localhost/hook',
    'http://93.184.216.34/hook',
  ]) {
    const res = await create(account.liveKey, { url, enabledEvents: ['*'] });
    expect({ url, ...errorsOf(res) }).toEqual({ url, status: 400, paths: ['/url'] });
  }
  const live = await create(account.liveKey, { url: 'https://93.184.216.34/hook', enabledEvents: ['*'] });
  expect(live).toMatchObject({ status: 201, body: { livemode: true } });
  expect(
    errorsOf(
      await api('PATCH', `/v1/webhook_endpoints/${live.body.id}`, account.liveKey, {
        url: 'https://192.168.0.10/hook',
      }),
    ),
  ).toEqual({ status: 400, paths: ['/url'] });

  for (let i = 0; i < 16; i++)
    expect(
      (await create(account.testKey, { url: receiver.url(`/n${i}`), enabledEvents: ['*'] })).status,
    ).toBe(201);
  expect(
    errorsOf(await create(account.testKey, { url: receiver.url('/n16'), enabledEvents: ['*'] })),
  ).toEqual({ status: 400, paths: ['/url'] });
  // Per mode: the live endpoint does not count against test's 16, and a deleted one frees its place.
  const page = (await api('GET', '/v1/webhook_endpoints?limit=100', account.testKey)).body;
  expect(page.data).toHaveLength(16);
  expect((await api('DELETE', `/v1/webhook_endpoints/${page.data[0].id}`, account.testKey)).body).toEqual({
    id: page.data[0].id,
    object: 'webhook_endpoint',
    deleted: true,
  });
  expect((await create(account.testKey, { url: receiver.url('/n16'), enabledEvents: ['*'] })).status).toBe(
    201,
  );
}, 120_000);

it('at delivery time the guard refuses a live endpoint whose address is internal, without connecting', async () => {
  const account = await stack.api.newAccount();
  const live = await api('POST', '/v1/webhook_endpoints', account.liveKey, {
    url: 'https://93.184.216.34/hook',
    enabledEvents: ['invoice.stamped'],
  });
  expect(live.status).toBe(201);
  // As if its name now resolved to the receiver on loopback (DNS rebinding): the guard runs after resolution.
  const path = newPath();
  await stack.api.orm.em
    .fork()
    .execute('update webhook_endpoints set url = ? where id = ?', [receiver.url(path), live.body.id]);
  await stack.api.orm.em.fork().transactional((tx) =>
    emitEvent(tx, { accountId: account.accountId, livemode: true }, 'invoice.stamped', {
      id: 'inv_test',
      object: 'invoice',
    }),
  );
  const attempts = await attemptsOf(account.liveKey, live.body.id, 1);
  expect(attempts[0]).toMatchObject({
    statusCode: null,
    succeeded: false,
    error: expect.stringMatching(
      /^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address live endpoints cannot reach/,
    ),
  });
  expect(receiver.at(path)).toHaveLength(0);
}, 120_000);

it('a worker killed mid-delivery: the delivery runs again on another worker (at least once, never lost)', async () => {
  await stack.stopWorker();
  let worker = await spawnWorker(stack);
  try {
    const account = await stampingAccount(stack);
    const path = newPath();
    receiver.plan(path, ['hang', 200]);
    const hook = await endpoint(account.testKey, path, ['invoice.stamped']);
    const invoice = await stampedInvoice(account);
    const [first] = await receiver.waitFor(path, 1, ofType('invoice.stamped', invoice.id));
    // The worker dies while the receiver holds the request: no answer, nothing recorded.
    await stopChild(worker, 'SIGKILL');
    worker = await spawnWorker(stack);
    const deliveries = await receiver.waitFor(path, 2, ofType('invoice.stamped', invoice.id), 120_000);
    expect(deliveries[1]!.headers['cfdi-event-id']).toBe(first!.headers['cfdi-event-id']);
    expect(deliveries[1]!.rawBody).toBe(first!.rawBody);
    const attempts = await attemptsOf(account.testKey, hook.id, 1);
    expect(attempts.map((a: any) => [a.statusCode, a.succeeded])).toEqual([[200, true]]);
  } finally {
    await stopChild(worker);
    await stack.startWorker();
  }
}, 240_000);
