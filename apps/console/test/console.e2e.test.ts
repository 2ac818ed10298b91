import type { Browser, Page } from 'playwright-core';
import { FinkokPac } from '@cfdi/pac';
import { createConsoleUser, emitEvent, generatePassword, SANDBOX_CREDENTIALS } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { ensureWebhookDispatchSchedule, webhookDispatchScheduleId } from '@cfdi/temporal-contract/client';
// The API's own stack harness (sandbox PAC, API, in-process worker): the console is tested against what the API does.
import {
  idempotencyKey,
  invoiceBody,
  stampingAccount,
  startStack,
  type StackHarness,
} from '@cfdi/api/test/stack';
import { startReceiver, type Receiver } from '@cfdi/api/test/webhook-receiver';
import { grantThroughConsent } from '@cfdi/api/test/oauth-client';
import { retentionBody } from '@cfdi/api/test/retention-fixtures';
import { checkPage, launchBrowser, openPage, signIn } from './browser';
import { consoleEnvFor, startConsole, type RunningConsole } from './console-server';

const PORT = Number(process.env.TEST_CONSOLE_PORT ?? 3310);

let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
let receiver: Receiver;
let account: Awaited<ReturnType<typeof stampingAccount>>;
let stamped: { id: string; uuid: string };
const users = { financeA: '', financeB: '', operator: '', admin: '' };
const password = generatePassword();

beforeAll(async () => {
  // Reconciliation lookups far in the future: in these tests the operator decides.
  // Webhook retries 1 s apart, so a failed delivery's second attempt comes while the test waits.
  stack = await startStack({
    RECONCILIATION_FIRST_LOOKUP_SECONDS: '3600',
    WEBHOOK_RETRY_FIRST_SECONDS: '1',
    WEBHOOK_RETRY_MAX_SECONDS: '1',
  });
  account = await stampingAccount(stack);
  const other = await stack.api.newAccount();
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({
    status: 201,
    body: null,
  });
  stamped = res.body;
  await waitFor(
    async () =>
      (await stack.api.request('GET', `/v1/invoices/${stamped.id}`, { key: account.testKey })).body.files
        .status === 'ready'
        ? true
        : undefined,
    { what: 'files' },
  );
  const tag = Date.now().toString(36);
  const em = () => stack.api.orm.em.fork();
  users.financeA = (
    await createConsoleUser(em(), {
      email: `finance-a-${tag}@example.mx`,
      password,
      role: 'finance',
      accountId: account.accountId,
    })
  ).email;
  users.financeB = (
    await createConsoleUser(em(), {
      email: `finance-b-${tag}@example.mx`,
      password,
      role: 'finance',
      accountId: other.accountId,
    })
  ).email;
  users.operator = (
    await createConsoleUser(em(), { email: `operator-${tag}@example.mx`, password, role: 'operator' })
  ).email;
  users.admin = (
    await createConsoleUser(em(), { email: `admin-${tag}@example.mx`, password, role: 'admin' })
  ).email;
  consoleApp = await startConsole(
    { ...consoleEnvFor(stack), RECONCILIATION_FIRST_LOOKUP_SECONDS: '3600' },
    PORT,
  );
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stack?.api.deps.temporal.schedule
    .getHandle(webhookDispatchScheduleId(stack.taskQueue))
    .delete()
    .catch(() => undefined);
  await receiver?.close();
  await stack?.close();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;

const newPage = (viewport?: { width: number; height: number }) => openPage(browser, viewport);

const money = (centavos: number) =>
  `$${(centavos / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} MXN`;

it('a wrong password gets a generic message; signing out ends the session server-side', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, `${password}x`);
  await expect(page.getByTestId('login-message').textContent()).resolves.toMatch(
    /Correo o contraseña incorrectos/,
  );
  await checkPage(page);
  await signIn(page, consoleApp.url, users.financeA, password);
  expect(new URL(page.url()).pathname).toBe('/');
  // The services' sign-in policy wrote both rows, naming the channel (the OAuth consent page writes oauth_consent).
  const signIns = await stack.api.orm.em
    .fork()
    .execute(
      "select action, detail from console_audit where actor_email = ? and action like 'session.sign_in%' order by id",
      [users.financeA],
    );
  expect(signIns).toEqual([
    { action: 'session.sign_in_failed', detail: { channel: 'console', reason: 'invalid' } },
    { action: 'session.sign_in', detail: { channel: 'console' } },
  ]);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'cfdi_session')!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.waitForURL(/\/login/);
  // The old cookie replayed after sign-out is worth nothing: back to the login page.
  await page.context().addCookies([{ ...cookie }]);
  await page.goto(url('/ledger'));
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(new URL(page.url()).searchParams.get('next')).toBe('/ledger');
  await page.context().close();
}, 60_000);

it('a finance user sees the API balance, finds the stamped document, downloads PDF and XML, exports the ledger as the API lists it', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  const balance = (await stack.api.request('GET', '/v1/balance', { key: account.testKey })).body;
  await expect(page.getByTestId('balance-test').getByTestId('balance-amount').textContent()).resolves.toBe(
    money(balance.balanceCentavos),
  );
  await expect(page.getByTestId('balance-test').getByTestId('timbres-remaining').textContent()).resolves.toBe(
    String(balance.timbresRemaining),
  );
  await checkPage(page, 'overview');

  await page.goto(url('/documents'));
  await page.getByLabel('UUID').fill(stamped.uuid.toLowerCase());
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL(/uuid=/);
  await checkPage(page, 'documents');
  await page.getByRole('link', { name: new RegExp(`^${account.serie}-`) }).click();
  await page.waitForURL(new RegExp(`/documents/${stamped.id}$`));
  await expect(page.getByTestId('document-uuid').textContent()).resolves.toBe(stamped.uuid);
  await checkPage(page, 'document');

  const xml = await page.request.get(url(`/documents/${stamped.id}/download/xml`));
  expect(xml.headers()['content-type']).toBe('application/xml');
  const [{ stamped_xml: stampedXml }] = (await stack.api.orm.em
    .fork()
    .execute('select stamped_xml from documents where id = ?', [stamped.id])) as [{ stamped_xml: string }];
  expect((await xml.body()).toString('utf8')).toBe(stampedXml);
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('download-pdf').click();
  const pdf = await (await pdfDownload).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const apiPdf = (await stack.api.request('GET', `/v1/invoices/${stamped.id}`, { key: account.testKey })).body
    .files.pdfUrl as string;
  const signed = new URL(apiPdf); // signed for API_PUBLIC_URL; the test API listens elsewhere
  expect(
    pdf.equals(
      Buffer.from(await (await fetch(`${stack.api.url}${signed.pathname}${signed.search}`)).arrayBuffer()),
    ),
  ).toBe(true);

  await page.goto(url('/ledger'));
  await checkPage(page);
  const csv = (await (await page.request.get(url('/ledger/export'))).text()).trim().split('\r\n');
  const api = (await stack.api.request('GET', '/v1/billing/transactions?limit=100', { key: account.testKey }))
    .body.data as Record<string, unknown>[];
  expect(csv[0]).toBe('id,createdAt,type,deltaCentavos,balanceAfterCentavos,referenceType,referenceId,note');
  expect(csv.slice(1)).toEqual(
    api.map((t) =>
      [
        t.id,
        t.createdAt,
        t.type,
        t.deltaCentavos,
        t.balanceAfterCentavos,
        t.referenceType ?? '',
        t.referenceId ?? '',
        t.note ?? '',
      ].join(','),
    ),
  );
  await page.context().close();
}, 90_000);

it('a finance user reads document statuses as labels in Spanish, or English once chosen, and the status filter still filters', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  const row = page.getByTestId(`document-${stamped.id}`);
  const filter = async (status: string, button: string) => {
    await page.getByRole('combobox', { name: /Estado|Status/ }).selectOption(status);
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL(new RegExp(`[?&]status=${status}(&|$)`));
  };

  await page.goto(url('/documents'));
  // Labels for people, machine values in the URL (links and bookmarks mean the same in both languages).
  await expect(page.locator('select[name=status] option[value=stamped]').textContent()).resolves.toBe(
    'Timbrado',
  );
  await filter('stamp_failed', 'Buscar');
  expect(await row.count()).toBe(0);
  expect(
    (await page.getByTestId('document-status').allTextContents()).filter(
      (label) => label !== 'Falló el timbrado',
    ),
  ).toEqual([]);
  await filter('stamped', 'Buscar');
  await expect(row.getByTestId('document-status').textContent()).resolves.toBe('Timbrado');
  expect(
    (await page.getByTestId('document-status').allTextContents()).filter((label) => label !== 'Timbrado'),
  ).toEqual([]);
  await row.getByRole('link').click();
  await page.waitForURL(new RegExp(`/documents/${stamped.id}$`));
  await expect(page.getByTestId('document-status').textContent()).resolves.toBe('Timbrado');

  // The language applies on change (no button): the sidebar's label is the sign the page came back in English.
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await page.getByRole('combobox', { name: 'Language' }).waitFor();
  await expect(page.getByTestId('document-status').textContent()).resolves.toBe('Stamped');
  await page.goto(url('/documents'));
  await expect(page.locator('select[name=status] option[value=stamped]').textContent()).resolves.toBe(
    'Stamped',
  );
  await filter('stamped', 'Search');
  await expect(row.getByTestId('document-status').textContent()).resolves.toBe('Stamped');
  await checkPage(page);
  await page.context().close();
}, 60_000);

it('a finance user sees what a payment complement paid (its CFDI total is 0) in the list, its page and the invoice it pays, and finds documents by serie-folio and part of a UUID', async () => {
  const post = (path: string, body: unknown) =>
    stack.api.request('POST', path, {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body,
    });
  const invoice = await post(
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 11600 },
      ],
    }),
  );
  expect(invoice.status).toBe(201);
  const payment = await post(`/v1/invoices/${invoice.body.id}/payments`, { monto: 5000.25, formaPago: '03' });
  expect(payment.status).toBe(201);

  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  await page.goto(url('/documents'));
  await expect(page.getByTestId(`document-${payment.body.id}`).textContent()).resolves.toContain('5,000.25');
  await page.goto(url(`/documents/${invoice.body.id}`));
  // Under the invoice's related documents, the payment's row shows what it paid.
  await expect(page.locator('body').textContent()).resolves.toContain('5,000.25');
  await page.goto(url(`/documents/${payment.body.id}`));
  await expect(page.getByTestId('document-amount-paid').textContent()).resolves.toContain('5,000.25');

  // Found as printed: the folio with its serie, and the first characters of a UUID.
  const { serie, folio } = invoice.body as { serie: string; folio: number };
  await page.goto(url(`/documents?folio=${encodeURIComponent(`${serie.toLowerCase()}-${folio}`)}`));
  await expect(page.getByTestId(`document-${invoice.body.id}`).count()).resolves.toBe(1);
  await page.goto(url(`/documents?uuid=${payment.body.uuid.slice(0, 8).toLowerCase()}`));
  await expect(page.getByTestId(`document-${payment.body.id}`).count()).resolves.toBe(1);
  await page.context().close();
}, 60_000);

it('a finance user finds a withholding certificate by its kind, reads its period, CveRetenc, totals and ImpRetenidos in Spanish and English, downloads its XML and cancels it', async () => {
  const res = await stack.api.request('POST', '/v1/retentions', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: retentionBody(account.merchantId),
  });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({
    status: 201,
    body: null,
  });
  const retention = res.body as { id: string; uuid: string };
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);

  // The kind filter: certificates only, labelled as such.
  await page.goto(url('/documents'));
  await page.getByRole('combobox', { name: 'Clase' }).selectOption('retention');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await page.waitForURL(/[?&]kind=retention(&|$)/);
  const row = page.getByTestId(`document-${retention.id}`);
  await expect(row.textContent()).resolves.toContain('Constancia de retenciones');
  await expect(page.getByTestId(`document-${stamped.id}`).count()).resolves.toBe(0);
  await row.getByRole('link').click();
  await page.waitForURL(new RegExp(`/documents/${retention.id}$`));

  // Its page tells it as a certificate: what was paid, when, to whom, and what was withheld.
  await expect(page.getByTestId('document-uuid').textContent()).resolves.toBe(retention.uuid);
  await expect(page.getByTestId('document-status').textContent()).resolves.toBe('Timbrado');
  await expect(page.getByTestId('retention-cve').textContent()).resolves.toBe('16');
  await expect(page.getByTestId('retention-period').textContent()).resolves.toBe(
    'Meses 1–12 · Ejercicio 2025',
  );
  await expect(page.getByTestId('retention-receiver').textContent()).resolves.toBe(
    'Nacional · URE180429TM6 · CP 86991',
  );
  await expect(page.getByTestId('retention-operation').textContent()).resolves.toBe('$51,234.50 MXN');
  await expect(page.getByTestId('retention-withheld').textContent()).resolves.toBe('$15,333.33 MXN');
  await expect(
    page.getByTestId('retention-withholdings').getByRole('row').allTextContents(),
  ).resolves.toEqual([
    'ImpuestoTipo de pagoBaseRetenido',
    'ISR 00101$50,000.00 MXN$10,000.00 MXN',
    'IVA 00201—$5,333.33 MXN',
  ]);
  // Its one file is the stamped XML: no PDF, no e-mail, no invoice lines.
  await expect(page.getByTestId('download-pdf').count()).resolves.toBe(0);
  await expect(page.getByRole('form', { name: 'Enviar por correo' }).count()).resolves.toBe(0);
  await expect(page.getByTestId('document-items').count()).resolves.toBe(0);
  const xml = await page.request.get(url(`/documents/${retention.id}/download/xml`));
  expect(xml.headers()['content-type']).toBe('application/xml');
  const [{ stamped_xml: stampedXml }] = (await stack.api.orm.em
    .fork()
    .execute('select stamped_xml from documents where id = ?', [retention.id])) as [{ stamped_xml: string }];
  expect((await xml.body()).toString('utf8')).toBe(stampedXml);
  expect(stampedXml).toContain('retenciones:Retenciones');
  await checkPage(page, 'retention');

  // On a phone, and in English.
  const phone = await newPage({ width: 390, height: 844 });
  await signIn(phone, consoleApp.url, users.financeA, password);
  await phone.goto(url(`/documents/${retention.id}`));
  await checkPage(phone);
  await phone.context().close();
  await page.context().addCookies([{ name: 'cfdi_lang', value: 'en', url: consoleApp.url }]);
  await page.reload();
  await page.getByRole('heading', { name: 'Withholding certificate' }).waitFor();
  await expect(page.getByTestId('retention-period').textContent()).resolves.toBe(
    'Months 1–12 · Fiscal year 2025',
  );
  await expect(page.getByTestId('retention-receiver').textContent()).resolves.toBe(
    'Mexican · URE180429TM6 · CP 86991',
  );
  await page.getByText('Total withheld').waitFor();
  await checkPage(page);

  // Cancelled from its page as any document: through the PAC's retentions service, no acceptance to wait for.
  const cancelForm = page.getByRole('form', { name: 'Cancel with the SAT' });
  await cancelForm.getByLabel(/^Reason/).selectOption('02');
  await cancelForm.getByRole('button', { name: 'Cancel with the SAT' }).click();
  await waitFor(
    async () => {
      if ((await page.getByTestId('document-status').textContent()) === 'Cancelled') return true;
      await page.reload();
      return undefined;
    },
    { what: 'the certificate cancelled' },
  );
  const api = await stack.api.request('GET', `/v1/retentions/${retention.id}`, { key: account.testKey });
  expect(api.body).toMatchObject({ status: 'cancelled', cancellation: { motivo: '02', status: 'accepted' } });
  await page.context().close();
}, 120_000);

it('every page works on a phone (390 px): no sideways scroll of the page, no serious axe violation', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page, consoleApp.url, users.admin, password);
  for (const path of [
    '/',
    '/ledger',
    '/documents',
    `/documents/${stamped.id}`,
    '/merchants',
    '/keys',
    '/connections',
    '/webhooks',
    '/reconciliation',
    '/failed-files',
    '/audit',
    '/users',
    '/exports',
    '/billing',
  ]) {
    await page.goto(url(path));
    await checkPage(page);
  }
  await page.context().close();
}, 120_000);

it("a finance user of another account gets 404 for that document's page and files", async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeB, password);
  const response = await page.goto(url(`/documents/${stamped.id}`));
  expect(response?.status()).toBe(404);
  expect(await page.content()).not.toContain(stamped.uuid);
  expect((await page.request.get(url(`/documents/${stamped.id}/download/xml`))).status()).toBe(404);
  await page.context().close();
}, 60_000);

it('a new API key is shown once and works against the API', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  await page.goto(url('/keys'));
  await page.getByLabel('Nota').fill('console e2e');
  await page.getByRole('button', { name: 'Crear llave' }).click();
  const secret = (await page.getByTestId('new-key-secret').textContent())!;
  expect(secret).toMatch(/^sk_test_/);
  expect((await stack.api.request('GET', '/v1/balance', { key: secret })).status).toBe(200);
  await checkPage(page);
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  await page.context().close();
}, 60_000);

it('a finance user sees the merchants with their CSD status, and a warning for a CSD that expires within 30 days', async () => {
  const em = () => stack.api.orm.em.fork();
  const [{ valid_to: validTo }] = (await em().execute(
    'select valid_to from merchant_csds where merchant_id = ?',
    [account.merchantId],
  )) as [{ valid_to: Date }];
  const page = await newPage();
  try {
    await signIn(page, consoleApp.url, users.financeA, password);
    await em().execute(
      `update merchant_csds set valid_to = now() + interval '10 days' where merchant_id = ?`,
      [account.merchantId],
    );
    await page.goto(url('/merchants'));
    await expect(
      page.getByTestId(`merchant-${account.merchantId}`).getByTestId('csd-status').textContent(),
    ).resolves.toBe('El CSD vence en menos de 30 días');
    await expect(page.getByTestId(`csd-warning-${account.merchantId}`).textContent()).resolves.toContain(
      'EKU9003173C9',
    );
    await checkPage(page);
    await em().execute(
      `update merchant_csds set valid_to = now() + interval '40 days' where merchant_id = ?`,
      [account.merchantId],
    );
    await page.reload();
    await expect(
      page.getByTestId(`merchant-${account.merchantId}`).getByTestId('csd-status').textContent(),
    ).resolves.toBe('Vigente');
    expect(await page.getByTestId(`csd-warning-${account.merchantId}`).count()).toBe(0);
  } finally {
    await em().execute('update merchant_csds set valid_to = ? where merchant_id = ?', [
      validTo,
      account.merchantId,
    ]);
    await page.context().close();
  }
}, 60_000);

it("a finance user sees the account's webhook endpoints and their delivery attempts", async () => {
  receiver = await startReceiver();
  await ensureWebhookDispatchSchedule(stack.api.deps.temporal, stack.taskQueue, {
    runForMs: 120_000,
    intervalMs: 200,
    eventRetentionDays: 30,
  });
  const path = '/console-hooks';
  receiver.plan(path, [500, 200]);
  const created = await stack.api.request('POST', '/v1/webhook_endpoints', {
    key: account.testKey,
    body: { url: receiver.url(path), enabledEvents: ['invoice.cancelled'], description: 'ERP' },
  });
  expect(created.status).toBe(201);
  const eventId = await stack.api.orm.em.fork().transactional((tx) =>
    emitEvent(tx, { accountId: account.accountId, livemode: false }, 'invoice.cancelled', {
      id: stamped.id,
      object: 'invoice',
    }),
  );
  const attempts = await waitFor(
    async () => {
      const res = await stack.api.request('GET', `/v1/webhook_endpoints/${created.body.id}/attempts`, {
        key: account.testKey,
      });
      return res.body.data?.length >= 2
        ? (res.body.data as { eventId: string; statusCode: number }[])
        : undefined;
    },
    { what: 'two delivery attempts', timeoutMs: 60_000, intervalMs: 250 },
  );
  expect(attempts.map((a) => [a.eventId, a.statusCode])).toEqual([
    [eventId, 200],
    [eventId, 500],
  ]);

  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  await page.goto(url('/webhooks'));
  const section = page.getByTestId(`endpoint-${created.body.id}`);
  await expect(section.textContent()).resolves.toContain(receiver.url(path));
  const rows = await section.getByTestId('webhook-attempt').allTextContents();
  expect(rows).toHaveLength(2);
  expect(rows[0]).toContain(eventId);
  expect(rows[0]).toContain('200');
  expect(rows[1]).toContain('500');
  await checkPage(page);
  await page.context().close();
}, 120_000);

it('an admin creates a finance user who can sign in, resets their password and disables them; a finance user cannot reach the users page', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.admin, password);
  await page.goto(url('/users'));
  await checkPage(page);
  const email = `new-finance-${Date.now().toString(36)}@example.mx`;
  const main = page.getByRole('form', { name: 'Crear usuario' }); // the sidebar and each user's edit form have selectors of their own
  await main.getByLabel('Correo electrónico').fill(email);
  await main.getByLabel('Rol').selectOption('finance');
  await main.getByLabel('Cuenta').selectOption(account.accountId);
  await main.getByRole('button', { name: 'Crear usuario' }).click();
  const generated = (await main.getByTestId('new-password').textContent())!;
  expect(generated.length).toBeGreaterThanOrEqual(12);
  const [created] = (await stack.api.orm.em
    .fork()
    .execute('select role, account_id from console_users where email = ?', [email])) as {
    role: string;
    account_id: string;
  }[];
  expect(created).toEqual({ role: 'finance', account_id: account.accountId });

  const financePage = await newPage();
  await signIn(financePage, consoleApp.url, email, generated);
  expect(new URL(financePage.url()).pathname).toBe('/');
  expect((await financePage.goto(url('/users')))?.status()).toBe(404);

  await page.reload();
  const row = page.getByTestId(`user-${email}`);
  await row.getByRole('button', { name: 'Restablecer contraseña' }).click();
  const reset = (await row.getByTestId('new-password').textContent())!;
  expect(reset).not.toBe(generated);
  await row.getByRole('button', { name: 'Desactivar' }).click();
  await expect(page.getByTestId(`user-${email}`).getByText('Desactivado').textContent()).resolves.toBe(
    'Desactivado',
  );
  // Disabling ends the user's sessions, and the new password does not let them back in.
  await financePage.goto(url('/'));
  expect(new URL(financePage.url()).pathname).toBe('/login');
  await signIn(financePage, consoleApp.url, email, reset);
  await expect(financePage.getByTestId('login-message').textContent()).resolves.toMatch(
    /Correo o contraseña incorrectos/,
  );
  await financePage.context().close();
  await page.context().close();
}, 90_000);

it("an admin creates a user limited to one merchant, then changes their role: the list, the audit log and the user's open session follow", async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.admin, password);
  await page.goto(url('/users'));
  const email = `limited-${Date.now().toString(36)}@example.mx`;
  const main = page.getByRole('form', { name: 'Crear usuario' });
  await main.getByLabel('Correo electrónico').fill(email);
  await main.getByLabel('Rol').selectOption('finance');
  await main.getByLabel('Cuenta').selectOption(account.accountId);
  await main.getByRole('checkbox', { name: new RegExp(account.merchantId) }).check();
  await main.getByRole('button', { name: 'Crear usuario' }).click();
  const generated = (await main.getByTestId('new-password').textContent())!;
  const [created] = (await stack.api.orm.em
    .fork()
    .execute('select id, role, merchant_ids from console_users where email = ?', [email])) as [
    { id: string; role: string; merchant_ids: string[] },
  ];
  expect(created).toMatchObject({ role: 'finance', merchant_ids: [account.merchantId] });

  // The user is signed in before the change; operator pages are a 404 for finance.
  const userPage = await newPage();
  await signIn(userPage, consoleApp.url, email, generated);
  expect((await userPage.goto(url('/audit')))?.status()).toBe(404);

  await page.reload();
  const row = page.getByTestId(`user-${email}`);
  await expect(row.getByTestId('user-merchants').textContent()).resolves.toBe(account.merchantId);
  await row.getByText('Editar').click();
  await row.getByLabel('Rol').selectOption('operator');
  await row.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.waitForURL(/updated=/);
  await checkPage(page, 'users');
  await expect(page.getByTestId(`user-${email}`).getByTestId('user-role').textContent()).resolves.toBe(
    'Operador',
  );
  await expect(page.getByTestId(`user-${email}`).getByTestId('user-merchants').textContent()).resolves.toBe(
    account.merchantId,
  );

  // The same session, not a new sign-in, now reaches operator pages, and still not the admins' users page.
  expect((await userPage.goto(url('/audit')))?.status()).toBe(200);
  expect((await userPage.goto(url('/users')))?.status()).toBe(404);
  await page.goto(url('/audit'));
  const audit = await page.getByTestId('audit-row').allTextContents();
  expect(
    audit.some(
      (text) =>
        text.includes(users.admin) && text.includes('console_user.update') && text.includes(created.id),
    ),
  ).toBe(true);
  await userPage.context().close();
  await page.context().close();
}, 90_000);

it('an operator renders failed files again', async () => {
  const em = () => stack.api.orm.em.fork();
  await em().execute(`update documents set files_status = 'failed' where id = ?`, [stamped.id]);
  const page = await newPage();
  await signIn(page, consoleApp.url, users.operator, password);
  await page.goto(url('/failed-files'));
  await checkPage(page);
  await page.getByTestId(`failed-${stamped.id}`).getByRole('button').click();
  await page.waitForURL(/[?&](done|refused)=/);
  await expect(page.getByTestId('render-done').textContent()).resolves.toContain(stamped.id);
  const [{ files_status: filesStatus }] = (await em().execute(
    'select files_status from documents where id = ?',
    [stamped.id],
  )) as [{ files_status: string }];
  expect(filesStatus).toBe('ready');
  expect(await page.getByTestId(`failed-${stamped.id}`).count()).toBe(0);
  await page.context().close();
}, 60_000);

describe('reconciliation by an operator', () => {
  const row = async (id: string): Promise<any> =>
    (await stack.api.orm.em.fork().execute('select * from documents where id = ?', [id]))[0];
  const ledgerTypes = async (id: string) =>
    (
      (await stack.api.orm.em
        .fork()
        .execute('select type from transactions where reference_id = ? order by seq', [id])) as {
        type: string;
      }[]
    ).map((t) => t.type);
  const armedFaults = async () =>
    ((await (await fetch(`${stack.sandbox.url}/sandbox/faults`)).json()) as { faults: unknown[] }).faults;

  /**
   * A document whose stamp is ambiguous, settled before any decision: exactly one fault armed (none left over), the
   * document flagged needsReconciliation with that fault consumed, and the sandbox's own lookup answering `expected`
   * (under load the stamp call can time out client-side while the sandbox is still storing the stamp, so an early
   * lookup may still say `not_stamped`).
   */
  async function ambiguous(
    kind: 'process_then_reset' | 'reset',
    expected: 'stamped' | 'not_stamped',
  ): Promise<{ id: string; uuid?: string }> {
    await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    const armed = await fetch(`${stack.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind, count: 1 }),
    });
    expect(armed.ok).toBe(true);
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    await waitFor(async () => ((await row(id)).needs_reconciliation ? true : undefined), {
      what: `${id} needsReconciliation`,
      timeoutMs: 30_000,
    });
    expect(await armedFaults()).toEqual([]);
    const pac = new FinkokPac({ url: stack.sandbox.url, ...SANDBOX_CREDENTIALS });
    try {
      const sealedXml = (await row(id)).sealed_xml as string;
      const found = await waitFor(
        async () => {
          const answer = await pac.lookupStamped(sealedXml);
          return answer.outcome === expected ? answer : undefined;
        },
        { what: `the sandbox to answer ${expected} for ${id}`, timeoutMs: 30_000, intervalMs: 250 },
      );
      return { id, uuid: found.outcome === 'stamped' ? found.uuid : undefined };
    } finally {
      pac.close();
    }
  }

  async function decide(
    page: Page,
    id: string,
    decision: 'stamped' | 'not_stamped',
    uuid: string,
    note: string,
  ) {
    await page.goto(url('/reconciliation'));
    await submitDecision(page, id, decision, uuid, note);
  }

  async function submitDecision(
    page: Page,
    id: string,
    decision: 'stamped' | 'not_stamped',
    uuid: string,
    note: string,
  ) {
    const card = page.getByTestId(`reconcile-${id}`);
    await card.getByRole('combobox', { name: 'Decidir' }).selectOption(decision);
    await card.getByRole('textbox', { name: 'UUID' }).fill(uuid);
    await card.getByRole('textbox', { name: 'Nota' }).fill(note);
    await card.getByRole('button', { name: 'Decidir' }).click();
    await page.waitForURL(/[?&](done|refused)=/);
  }

  it('resolves one as stamped and one as not stamped, leaving document and ledger as the CLI would; refuses what the CLI refuses', async () => {
    const { id: stampedAtPac, uuid: pacUuid } = await ambiguous('process_then_reset', 'stamped');
    const { id: neverStamped } = await ambiguous('reset', 'not_stamped');
    const page = await newPage();
    await signIn(page, consoleApp.url, users.operator, password);
    await page.goto(url('/reconciliation'));
    await checkPage(page, 'reconciliation');
    // A second tab keeps the queue as it is now, to decide on a document that will have been resolved meanwhile.
    const stalePage = await page.context().newPage();
    await stalePage.goto(url('/reconciliation'));

    // The PAC's UUID is already in the form of the document it stamped; the other's form is empty, set to "not stamped".
    const field = (id: string, name: string) =>
      page.getByTestId(`reconcile-${id}`).getByRole(name === 'Decidir' ? 'combobox' : 'textbox', { name });
    await expect(field(stampedAtPac, 'UUID').inputValue()).resolves.toBe(pacUuid!);
    await expect(field(stampedAtPac, 'Decidir').inputValue()).resolves.toBe('stamped');
    await expect(field(neverStamped, 'UUID').inputValue()).resolves.toBe('');
    await expect(field(neverStamped, 'Decidir').inputValue()).resolves.toBe('not_stamped');
    // The services' input rules (the CLI's too): "stamped" without a UUID is refused before the PAC is asked, in the
    // page's language, and what was typed stays in the form.
    await decide(page, neverStamped, 'stamped', '', 'typo');
    await expect(page.getByTestId('reconcile-refused').textContent()).resolves.toBe(
      `${neverStamped}: Una decisión "timbrado" necesita el UUID del timbre.`,
    );
    await expect(field(neverStamped, 'Nota').inputValue()).resolves.toBe('typo');
    await expect(field(neverStamped, 'Decidir').inputValue()).resolves.toBe('stamped');
    await checkPage(page);
    // A UUID the PAC does not know is refused with the reason, and nothing is signalled.
    await decide(page, neverStamped, 'stamped', '0AF3C8D1-1111-4222-8333-944455566677', 'typo');
    await expect(page.getByTestId('reconcile-refused').textContent()).resolves.toMatch(
      /El PAC no confirma ese UUID para este documento/,
    );
    await expect(field(neverStamped, 'UUID').inputValue()).resolves.toBe(
      '0AF3C8D1-1111-4222-8333-944455566677',
    );
    expect(await row(neverStamped)).toMatchObject({
      status: 'stamping',
      needs_reconciliation: true,
      reservation_state: 'reserved',
    });

    await decide(page, stampedAtPac, 'stamped', pacUuid!, 'seen in the PAC portal');
    await expect(page.getByTestId('reconcile-done').textContent()).resolves.toContain(stampedAtPac);
    await decide(page, neverStamped, 'not_stamped', '', 'PAC has no record');
    await expect(page.getByTestId('reconcile-done').textContent()).resolves.toContain(neverStamped);

    const confirmed = await waitFor(
      async () => {
        const r = await row(stampedAtPac);
        return r.status === 'stamped' ? r : undefined;
      },
      { what: 'stamped' },
    );
    expect(confirmed).toMatchObject({
      uuid: pacUuid!.toUpperCase(),
      needs_reconciliation: false,
      reservation_state: 'confirmed',
    });
    expect(await ledgerTypes(stampedAtPac)).toEqual(['consume']);
    const failed = await waitFor(
      async () => {
        const r = await row(neverStamped);
        return r.status === 'stamp_failed' ? r : undefined;
      },
      { what: 'stamp_failed' },
    );
    expect(failed).toMatchObject({ needs_reconciliation: false, reservation_state: 'refunded' });
    expect(await ledgerTypes(neverStamped)).toEqual(['consume', 'refund']);
    const resolutions = await stack.api.orm.em
      .fork()
      .execute(
        'select document_id, resolution, resolved_by, note from reconciliations where document_id in (?, ?) order by id',
        [stampedAtPac, neverStamped],
      );
    expect(resolutions).toEqual([
      {
        document_id: stampedAtPac,
        resolution: 'stamped',
        resolved_by: users.operator,
        note: 'seen in the PAC portal',
      },
      {
        document_id: neverStamped,
        resolution: 'not_stamped',
        resolved_by: users.operator,
        note: 'PAC has no record',
      },
    ]);

    // A document no longer waiting: a clear message, nothing signalled.
    await submitDecision(stalePage, neverStamped, 'stamped', pacUuid!, 'late');
    await expect(stalePage.getByTestId('reconcile-refused').textContent()).resolves.toBe(
      `${neverStamped}: Este documento ya no espera conciliación (otra decisión o el PAC lo resolvieron); no se hizo nada.`,
    );
    expect(await ledgerTypes(neverStamped)).toEqual(['consume', 'refund']);
    expect(await row(neverStamped)).toMatchObject({ status: 'stamp_failed' });

    await page.context().close();
  }, 120_000);
});

// Last: every earlier test's actions are in the log by now.
it('the audit log shows each state-changing action with who took it', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.operator, password);
  await page.goto(url('/audit'));
  await checkPage(page);
  const actions = await page.getByTestId('audit-row').allTextContents();
  for (const [who, what] of [
    [users.admin, 'console_user.create'],
    [users.admin, 'console_user.update'],
    [users.admin, 'console_user.reset_password'],
    [users.admin, 'console_user.disable'],
    [users.operator, 'files.render_again'],
    [users.operator, 'reconciliation.resolve'],
    [users.operator, 'session.sign_in'],
    [users.financeA, 'api_key.create'],
    [users.financeA, 'session.sign_out'],
    [users.financeA, 'session.sign_in_failed'],
  ] as const) {
    expect({ who, what, found: actions.some((text) => text.includes(who) && text.includes(what)) }).toEqual({
      who,
      what,
      found: true,
    });
  }
  await page.context().close();
}, 60_000);

it('a user sees the applications they connected, read-only or not, and disconnects one: its token stops working', async () => {
  const connect = (scope: string, clientName: string) =>
    grantThroughConsent({
      apiUrl: stack.api.url,
      resource: `${stack.api.config.api.publicBaseUrl}/mcp/test`,
      email: users.financeA,
      password,
      merchantIds: [account.merchantId],
      scope,
      clientName,
    });
  const reader = await connect('read', 'Agente lector');
  await connect('read write', 'Agente contable');
  const mcpStatus = async (token: string) =>
    (
      await fetch(`${stack.api.url}/mcp/test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      })
    ).status;
  expect(await mcpStatus(reader.accessToken)).not.toBe(401);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    const page = await newPage(viewport);
    await signIn(page, consoleApp.url, users.financeA, password);
    await page.goto(url('/connections'));
    await expect(page.getByRole('link', { name: 'Aplicaciones conectadas' }).count()).resolves.toBe(1);
    const rows = page.getByRole('row');
    await expect(rows.filter({ hasText: 'Agente lector' }).getByText('Solo lectura').count()).resolves.toBe(
      1,
    );
    await expect(
      rows.filter({ hasText: 'Agente contable' }).getByText('Lectura y escritura').count(),
    ).resolves.toBe(1);
    await checkPage(page, viewport.width === 1280 ? 'connections' : undefined);
    await page.context().close();
  }
  // Another user of the same account does not see them.
  const other = await newPage();
  await signIn(other, consoleApp.url, users.admin, password);
  await other.goto(url('/connections'));
  await expect(other.getByText('Agente lector').count()).resolves.toBe(0);
  await other.context().close();

  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, password);
  await page.goto(url('/connections'));
  await page
    .getByRole('row')
    .filter({ hasText: 'Agente lector' })
    .getByRole('button', { name: 'Desconectar' })
    .click();
  // The action redirects to this same page: wait for the row to go rather than for the URL.
  await page.getByText('Agente lector').waitFor({ state: 'detached' });
  await expect(page.getByText('Agente contable').count()).resolves.toBe(1);
  expect(await mcpStatus(reader.accessToken)).toBe(401);
  await page.context().close();
}, 90_000);
