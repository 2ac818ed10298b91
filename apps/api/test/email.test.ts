import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { startMailpit, type RunningMailpit } from '@cfdi/devstack';
import { requestDocumentEmail } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import {
  ensureWebhookDispatchSchedule,
  resumeWorkflowOf,
  stampWorkflowId,
  webhookDispatchScheduleId,
} from '@cfdi/temporal-contract/client';
import { startApi } from './harness';
import { EKU } from './merchant-fixtures';
import { CUSTOMER, saved } from './record-fixtures';
import { mailpitClient } from './mailpit-client';
import { keyForAnotherMerchant } from './restricted-key';
import { startSmtpGate } from './smtp-gate';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { startReceiver, type Receiver } from './webhook-receiver';

let mailpit: RunningMailpit;
let gate: Awaited<ReturnType<typeof startSmtpGate>>;
let stack: StackHarness;
let receiver: Receiver;
let mail: ReturnType<typeof mailpitClient>;
beforeAll(async () => {
  mailpit = await startMailpit(() => undefined);
  mail = mailpitClient(mailpit.webUrl);
  gate = await startSmtpGate(mailpit.smtpPort);
  stack = await startStack({
    SMTP_URL: `smtp://127.0.0.1:${gate.port}`,
    MAIL_FROM: 'Facturas <facturas@example.com>',
    // Three attempts a second apart: a failing server is given up on within the test.
    EMAIL_MAX_ATTEMPTS: '3',
    EMAIL_RETRY_FIRST_SECONDS: '1',
    EMAIL_RETRY_MAX_SECONDS: '1',
    EMAIL_RATE_LIMIT_PER_MINUTE: '20',
    STAMP_WAIT_MS: '3000',
  });
  await ensureWebhookDispatchSchedule(stack.api.deps.temporal, stack.taskQueue, {
    runForMs: 60_000,
    intervalMs: 200,
    eventRetentionDays: 30,
  });
  receiver = await startReceiver();
}, 300_000);
afterAll(async () => {
  await stack?.api.deps.temporal.schedule
    .getHandle(webhookDispatchScheduleId(stack.taskQueue))
    .delete()
    .catch(() => undefined);
  await receiver?.close();
  await stack?.close();
  await gate?.close();
  await mailpit?.stop();
}, 60_000);
afterEach(async () => {
  gate.failWith(null);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
});

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const api = (method: string, path: string, key: string, body?: unknown) =>
  stack.api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
const address = (name = 'cliente') => `${name}-${randomBytes(4).toString('hex')}@example.com`;

async function stampedInvoice(account: Account) {
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; uuid: string; serie: string; folio: string; files: { xmlUrl: string } };
}

async function endpointFor(account: Account) {
  const path = `/hooks/${randomBytes(4).toString('hex')}`;
  const res = await api('POST', '/v1/webhook_endpoints', account.testKey, {
    url: receiver.url(path),
    enabledEvents: ['email.sent', 'email.failed'],
  });
  expect(res.status).toBe(201);
  return path;
}

async function deliveryOf(account: Account, invoiceId: string, deliveryId: string, status: string) {
  return waitFor(
    async () => {
      const list = (await api('GET', `/v1/invoices/${invoiceId}/emails`, account.testKey)).body;
      const delivery = list.data.find((d: { id: string }) => d.id === deliveryId);
      return delivery?.status === status ? delivery : undefined;
    },
    { timeoutMs: 60_000, what: `${deliveryId} to be ${status}` },
  );
}

describe('POST /v1/invoices/{id}/email', () => {
  it('sends the stamped XML, byte-identical, and the PDF; the delivery is sent and email.sent is delivered', async () => {
    const account = await stampingAccount(stack);
    const hooks = await endpointFor(account);
    const invoice = await stampedInvoice(account);
    const to = address();

    const res = await api('POST', `/v1/invoices/${invoice.id}/email`, account.testKey, { to: [to] });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      object: 'email_delivery',
      status: 'queued',
      to: [to],
      trigger: 'request',
    });

    const [message] = await mail.waitForMessages(to);
    expect(message!.To.map((t) => t.Address)).toEqual([to]);
    expect(message!.Subject).toBe(`Factura ${invoice.serie}-${invoice.folio} de ${EKU.legalName}`);
    expect(message!.Text).toContain(invoice.uuid);
    expect(message!.Text).toContain('$26,700.00 MXN');
    expect(message!.Attachments.map((a) => a.FileName).sort()).toEqual([
      `${invoice.uuid}.pdf`,
      `${invoice.uuid}.xml`,
    ]);
    const xmlPart = message!.Attachments.find((a) => a.FileName.endsWith('.xml'))!;
    const pdfPart = message!.Attachments.find((a) => a.FileName.endsWith('.pdf'))!;
    const { pathname, search } = new URL(invoice.files.xmlUrl);
    const download = await fetch(`${stack.api.url}${pathname}${search}`);
    expect(download.status).toBe(200);
    const stored = Buffer.from(await download.arrayBuffer());
    expect((await mail.part(message!.ID, xmlPart.PartID)).equals(stored)).toBe(true);
    expect((await mail.part(message!.ID, pdfPart.PartID)).subarray(0, 5).toString()).toBe('%PDF-');

    const sent = await deliveryOf(account, invoice.id, res.body.id, 'sent');
    expect(sent).toMatchObject({ attempts: 1, smtpResponse: expect.stringMatching(/^250 /) });
    const [event] = await receiver.waitFor(hooks, 1, (r) => r.event.type === 'email.sent');
    expect(event!.event.data.object).toMatchObject({
      id: res.body.id,
      documentId: invoice.id,
      status: 'sent',
    });
  });

  it('writes English when asked', async () => {
    const account = await stampingAccount(stack);
    const invoice = await stampedInvoice(account);
    const to = address();
    const res = await api('POST', `/v1/invoices/${invoice.id}/email`, account.testKey, {
      to: [to],
      locale: 'en',
    });
    expect(res.status).toBe(202);
    const [message] = await mail.waitForMessages(to);
    expect(message!.Subject).toBe(`Invoice ${invoice.serie}-${invoice.folio} from ${EKU.legalName}`);
  });

  it('retries a server that refuses with 451 and reports the delivery failed with its answer, and email.failed', async () => {
    const account = await stampingAccount(stack);
    const hooks = await endpointFor(account);
    const invoice = await stampedInvoice(account);
    gate.failWith('451 4.3.0 Mailbox busy, try again later');
    const before = gate.connections();

    const res = await api('POST', `/v1/invoices/${invoice.id}/email`, account.testKey, { to: [address()] });
    expect(res.status).toBe(202);
    const failed = await deliveryOf(account, invoice.id, res.body.id, 'failed');
    expect(failed).toMatchObject({
      attempts: 3,
      smtpResponse: expect.stringContaining('451 4.3.0 Mailbox busy'),
      failedAt: expect.any(String),
      sentAt: null,
    });
    expect(gate.connections() - before).toBe(3);
    const [event] = await receiver.waitFor(hooks, 1, (r) => r.event.type === 'email.failed');
    expect(event!.event.data.object).toMatchObject({ id: res.body.id, status: 'failed', attempts: 3 });
  });

  it('refuses bad addresses and header injection with field paths, and more than 10 recipients', async () => {
    const account = await stampingAccount(stack);
    const invoice = await stampedInvoice(account);
    const send = (body: unknown) => api('POST', `/v1/invoices/${invoice.id}/email`, account.testKey, body);

    const bad = await send({ to: ['ok@example.com', 'not an address'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: '/to/1', message: expect.stringContaining('e-mail address') }]);

    const injected = await send({ to: ['victim@example.com\r\nBcc: everyone@example.com'] });
    expect(injected.status).toBe(400);
    expect(injected.body.errors.map((e: { path: string }) => e.path)).toEqual(['/to/0']);

    const many = await send({ to: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`) });
    expect(many.status).toBe(400);
    expect(many.body.errors[0].path).toBe('/to');

    const none = await send({});
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([{ path: '/to', message: expect.stringContaining('required') }]);
    expect((await api('GET', `/v1/invoices/${invoice.id}/emails`, account.testKey)).body.data).toEqual([]);
  });

  it("answers 404 for another account's, mode's or merchant's document, as for an unknown id", async () => {
    const account = await stampingAccount(stack);
    const invoice = await stampedInvoice(account);
    const other = await stampingAccount(stack);
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const body = { to: [address()] };
    const unknown = await api(
      'POST',
      '/v1/invoices/inv_00000000000000000000000000/email',
      account.testKey,
      body,
    );
    expect(unknown.status).toBe(404);
    for (const key of [other.testKey, account.liveKey, restricted]) {
      const post = await api('POST', `/v1/invoices/${invoice.id}/email`, key, body);
      const list = await api('GET', `/v1/invoices/${invoice.id}/emails`, key);
      expect([post.status, post.body.code, list.status, list.body.code]).toEqual([
        404,
        'not_found',
        404,
        'not_found',
      ]);
    }
    // A payment's route does not reach an invoice.
    expect((await api('POST', `/v1/payments/${invoice.id}/email`, account.testKey, body)).status).toBe(404);
    expect((await api('GET', `/v1/invoices/${invoice.id}/emails`, account.testKey)).body.data).toEqual([]);
  });

  it('answers 503 email_unavailable without an SMTP server, but only after the 404 of an id nobody has', async () => {
    const account = await stampingAccount(stack);
    const invoice = await stampedInvoice(account);
    const unconfigured = await startApi();
    try {
      const unknown = await unconfigured.request('POST', '/v1/invoices/inv_nobody/email', {
        key: account.testKey,
        body: { to: [address()] },
      });
      const known = await unconfigured.request('POST', `/v1/invoices/${invoice.id}/email`, {
        key: account.testKey,
        body: { to: [address()] },
      });
      expect([unknown.status, unknown.body.code, known.status, known.body.code]).toEqual([
        404,
        'not_found',
        503,
        'email_unavailable',
      ]);
      expect((await api('GET', `/v1/invoices/${invoice.id}/emails`, account.testKey)).body.data).toEqual([]);
    } finally {
      await unconfigured.close();
    }
  });

  it('answers 409 while the document is still stamping', async () => {
    const account = await stampingAccount(stack);
    await fetch(`${stack.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 6000 } }),
    });
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    expect(res.status).toBe(202);
    const email = await api('POST', `/v1/invoices/${res.body.id}/email`, account.testKey, {
      to: [address()],
    });
    expect([email.status, email.body.code]).toEqual([409, 'document_not_stamped']);
  });
});

describe('automatic e-mail', () => {
  it('sends once on stamp when the merchant asks for it, also when the stamp is run again', async () => {
    const copy = address('contabilidad');
    const account = await stampingAccount(stack, { ...EKU, autoEmail: true, emailCopyTo: [copy] });
    const invoice = await stampedInvoice(account);

    const [message] = await mail.waitForMessages(copy);
    expect(message!.Attachments).toHaveLength(2);

    // The stamp run again (a retried stamp: the document is stamped already, the e-mail step runs once more).
    const client = stack.api.deps.temporal;
    const first = client.workflow.getHandle(stampWorkflowId(invoice.id));
    await first.result();
    const input = { documentId: invoice.id, reconciliation: stack.api.config.reconciliation };
    expect(await resumeWorkflowOf(client, { kind: 'stamping', input }, stack.taskQueue)).toBe(true);
    await client.workflow.getHandle(stampWorkflowId(invoice.id)).result();

    const list = (await api('GET', `/v1/invoices/${invoice.id}/emails`, account.testKey)).body;
    expect(list.data.map((d: { trigger: string }) => d.trigger)).toEqual(['stamped']);
    await deliveryOf(account, invoice.id, list.data[0].id, 'sent');
    expect(await mail.messagesTo(copy)).toHaveLength(1);
  });
  it("writes to a saved customer's addresses in its language, on stamp when the customer asks although the merchant does not", async () => {
    const account = await stampingAccount(stack);
    const [to, second] = [address('cuentas'), address('pagos')];
    const customer = await saved(stack, account.testKey, '/v1/customers', {
      ...CUSTOMER,
      emails: [to, second],
      locale: 'en',
      autoEmail: true,
    });
    const { receiver: _receiver, ...body } = invoiceBody(account.merchantId);
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: { ...body, customerId: customer.id },
    });
    expect(res.status).toBe(201);

    const [message] = await mail.waitForMessages(to);
    expect(message!.To.map((t) => t.Address).sort()).toEqual([to, second].sort());
    expect(message!.Subject).toBe(`Invoice ${res.body.serie}-${res.body.folio} from ${EKU.legalName}`);
    // A request without `to` goes to the customer too; a request's `to` replaces the customer's addresses.
    const again = await api('POST', `/v1/invoices/${res.body.id}/email`, account.testKey, {});
    expect([again.status, again.body.to.sort(), again.body.locale]).toEqual([202, [to, second].sort(), 'en']);
    const other = address('otro');
    const asked = await api('POST', `/v1/invoices/${res.body.id}/email`, account.testKey, { to: [other] });
    expect([asked.status, asked.body.to]).toEqual([202, [other]]);
  });
  it("has no e-mail step when the setting is off, the merchant's or a saved customer's over the merchant's: the API stamps those itself, without a workflow", async () => {
    /** The activities of the document's stamp workflow; null when the API stamped it without one. */
    const activitiesOf = async (invoiceId: string) => {
      const handle = stack.api.deps.temporal.workflow.getHandle(stampWorkflowId(invoiceId));
      try {
        await handle.result();
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return null;
        throw error;
      }
      const history = await handle.fetchHistory();
      return (history.events ?? []).flatMap((e) =>
        e.activityTaskScheduledEventAttributes
          ? [e.activityTaskScheduledEventAttributes.activityType?.name]
          : [],
      );
    };
    const off = await stampingAccount(stack);
    expect(await activitiesOf((await stampedInvoice(off)).id)).toBeNull();

    const on = await stampingAccount(stack, { ...EKU, autoEmail: true, emailCopyTo: [address('copia')] });
    expect(await activitiesOf((await stampedInvoice(on)).id)).toEqual(['queueAutomaticEmail']);
    const quiet = await saved(stack, on.testKey, '/v1/customers', {
      ...CUSTOMER,
      emails: [address('callado')],
      autoEmail: false,
    });
    const { receiver: _receiver, ...body } = invoiceBody(on.merchantId);
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: on.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: { ...body, customerId: quiet.id },
    });
    expect(res.status).toBe(201);
    expect(await activitiesOf(res.body.id)).toBeNull();
    expect((await api('GET', `/v1/invoices/${res.body.id}/emails`, on.testKey)).body.data).toEqual([]);
  });
  it('sends a delivery the API recorded but never handed to a workflow (it died in between) from the recovery sweep, once', async () => {
    const account = await stampingAccount(stack);
    const invoice = await stampedInvoice(account);
    const to = address('huerfano');
    // What the API does before it starts the workflow: the delivery is recorded, queued; then the process is gone.
    const em = stack.api.orm.em.fork();
    const scope = { accountId: account.accountId, livemode: false, keyId: 'test', merchantIds: null };
    const delivery = await requestDocumentEmail(
      em,
      scope,
      'invoice',
      invoice.id,
      { to: [to] },
      { configured: true },
    );
    await em.execute(
      "update email_deliveries set created_at = created_at - interval '2 minutes' where id = ?",
      [delivery.id],
    );
    const sweep = () =>
      stack.api.deps.temporal.workflow.execute('resumeStalledWorkflow', {
        taskQueue: stack.taskQueue,
        workflowId: `resume-stalled-email-${randomBytes(4).toString('hex')}`,
      }) as Promise<{ resumed: number }>;

    expect((await sweep()).resumed).toBeGreaterThanOrEqual(1);
    await deliveryOf(account, invoice.id, delivery.id, 'sent');
    // A second sweep finds it sent; even a queued one whose workflow ran is never started twice.
    await sweep();
    expect(await mail.messagesTo(to)).toHaveLength(1);
  });
});
