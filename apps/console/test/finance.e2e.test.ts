import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { defaultSatDir } from '@cfdi/config';
import { createConsoleUser, createDocumentExport, generatePassword } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import {
  idempotencyKey,
  invoiceBody,
  stampingAccount,
  startStack,
  type StackHarness,
} from '@cfdi/api/test/stack';
import { checkPage, launchBrowser, openPage, signIn } from './browser';
import { consoleEnvFor, startConsole, type RunningConsole } from './console-server';

// The finance team's jobs: receivables, exports and buying timbres. Its own port, so it can run beside the main console suite.
const PORT = Number(process.env.TEST_CONSOLE_FINANCE_PORT ?? 3311);

let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
let stripeMock: { apiBase: string; stop(): Promise<void> };
let account: Awaited<ReturnType<typeof stampingAccount>>;
let financeUser = '';
const password = generatePassword();

beforeAll(async () => {
  stack = await startStack();
  account = await stampingAccount(stack);
  financeUser = (
    await createConsoleUser(stack.api.orm.em.fork(), {
      email: `finance-${Date.now().toString(36)}@example.mx`,
      password,
      role: 'finance',
      accountId: account.accountId,
    })
  ).email;
  // Loaded by a name the console's type check does not follow: devstack's sources are checked by their own workspace
  // (under Next's ProcessEnv they would not be).
  const devstack = '@cfdi/devstack';
  stripeMock = await (
    (await import(devstack)) as { startStripeMock: (log: () => void) => Promise<typeof stripeMock> }
  ).startStripeMock(() => undefined);
  consoleApp = await startConsole(
    {
      ...consoleEnvFor(stack),
      // The console starts Checkout through the services, against stripe-mock (it accepts test keys only).
      STRIPE_API_BASE: stripeMock.apiBase,
      STRIPE_TEST_SECRET_KEY: 'sk_test_console',
      STRIPE_TEST_WEBHOOK_SECRET: 'whsec_console',
      STRIPE_SUCCESS_URL: `http://127.0.0.1:${PORT}/billing?paid={CHECKOUT_SESSION_ID}`,
      STRIPE_CANCEL_URL: `http://127.0.0.1:${PORT}/billing`,
      STRIPE_PORTAL_RETURN_URL: `http://127.0.0.1:${PORT}/billing`,
      // A month of this suite's documents is a "large" export: built by the workflow, downloaded when ready.
      EXPORT_STREAM_MAX_DOCUMENTS: '2',
    },
    PORT,
  );
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stripeMock?.stop();
  await stack?.close();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;
const post = (path: string, body: unknown) =>
  stack.api.request('POST', path, {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body,
  });

/** A stamped PPD invoice of `total` pesos (one line, IVA 16 % included) to the stack's receiver. */
async function ppdInvoice(total: number): Promise<{ id: string; uuid: string; receiver: { rfc: string } }> {
  const res = await post(
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: total },
      ],
    }),
  );
  expect({ status: res.status, total: res.body.total }).toEqual({ status: 201, total });
  return res.body;
}

async function signedIn(viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openPage(browser, viewport);
  await signIn(page, consoleApp.url, financeUser, password);
  return page;
}

/** The receivables row of an RFC: each bucket's text, in order, then the total. */
async function agingRow(page: Page, rfc: string): Promise<string[]> {
  const row = page.getByTestId(`aging-${rfc}`);
  return Promise.all(
    ['aging-d0_30', 'aging-d31_60', 'aging-d61_90', 'aging-d90_plus', 'aging-total'].map((id) =>
      row.getByTestId(id).innerText(),
    ),
  );
}

it('records a payment on a PPD invoice: the balance, the payments and the aging per customer follow', async () => {
  const recent = await ppdInvoice(1160);
  const older = await ppdInvoice(2320);
  const paidUp = await post('/v1/invoices', invoiceBody(account.merchantId)); // PUE: never a receivable
  expect(paidUp.status).toBe(201);
  // The older invoice was issued 45 days ago: its balance ages into 31–60.
  await stack.api.orm.em
    .fork()
    .execute(`update documents set stamped_at = now() - interval '45 days' where id = ?`, [older.id]);
  const rfc = recent.receiver.rfc;

  const page = await signedIn();
  await page.goto(url('/receivables'));
  await expect(agingRow(page, rfc)).resolves.toEqual([
    '$1,160.00 MXN',
    '$2,320.00 MXN',
    '$0.00 MXN',
    '$0.00 MXN',
    '$3,480.00 MXN',
  ]);
  await checkPage(page, 'receivables');

  // The customer pays 500 of the older invoice.
  const payment = await post(`/v1/invoices/${older.id}/payments`, { monto: 500, formaPago: '03' });
  expect({ status: payment.status, saldoInsoluto: payment.body.saldoInsoluto }).toEqual({
    status: 201,
    saldoInsoluto: 1820,
  });
  await page.reload();
  await expect(agingRow(page, rfc)).resolves.toEqual([
    '$1,160.00 MXN',
    '$1,820.00 MXN',
    '$0.00 MXN',
    '$0.00 MXN',
    '$2,980.00 MXN',
  ]);

  // The invoice's page: balance, method and form of payment, lines, IVA per rate and the payment with its amount.
  await page.goto(url(`/documents/${older.id}`));
  await expect(page.getByTestId('document-balance').innerText()).resolves.toBe('$1,820.00 MXN');
  await expect(page.getByTestId('document-payment-method').innerText()).resolves.toBe('PPD');
  await expect(page.getByTestId('document-items').innerText()).resolves.toMatch(
    /Servidor[\s\S]*\$2,000\.00 MXN/,
  );
  await expect(page.getByTestId('document-taxes').innerText()).resolves.toMatch(
    /IVA 16%[\s\S]*\$2,000\.00 MXN[\s\S]*\$320\.00 MXN/,
  );
  await expect(page.getByTestId(`related-amount-${payment.body.id}`).innerText()).resolves.toBe(
    '$500.00 MXN',
  );
  // Labelled in the page's language (the English page is checked below), never the old bare "Saldo:".
  await expect(page.locator('main').innerText()).resolves.toMatch(/Saldo pendiente\s+\$1,820\.00 MXN/);
  await checkPage(page, 'document-ppd');

  // "With balance" lists the two open invoices and not the paid-up one.
  await page.goto(url('/documents?balance=1'));
  await expect(page.getByRole('checkbox', { name: 'Con saldo pendiente' }).isChecked()).resolves.toBe(true);
  const listed = await page
    .locator('[data-testid^="document-"][data-testid*="inv_"]')
    .evaluateAll((rows) => rows.map((r) => (r as unknown as { dataset: { testid: string } }).dataset.testid));
  expect(listed.sort()).toEqual([`document-${older.id}`, `document-${recent.id}`].sort());
  await checkPage(page);
  await page.context().close();
}, 120_000);

it('shows the receivables pages in English and on a phone, axe clean, with no sideways scroll', async () => {
  const page = await signedIn({ width: 390, height: 844 });
  await page.goto(url('/receivables'));
  await checkPage(page);
  // The language applies on change (no button): the sidebar's label is the sign the page came back in English.
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await page.getByRole('combobox', { name: 'Language' }).waitFor();
  await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Receivables');
  await expect(page.getByRole('columnheader', { name: 'Over 90 days' }).count()).resolves.toBe(1);
  await checkPage(page);
  await page.goto(url('/documents?balance=1'));
  await checkPage(page);
  const [first] = await page
    .locator('a[href^="/documents/inv_"]')
    .evaluateAll((links) =>
      links.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')),
    );
  await page.goto(url(first!));
  const main = await page.locator('main').innerText();
  expect(main).toMatch(/Outstanding balance\s+\$[\d,.]+ MXN/);
  expect(main).not.toMatch(/Saldo/);
  await checkPage(page);
  await page.context().close();
}, 120_000);

it("exports a month in the background: progress, then a ZIP of every stamped document's schema-valid XML and its PDF; the CSV one line each", async () => {
  const month = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Mexico_City' })
    .format(new Date())
    .slice(0, 7);
  const stamped: { id: string; uuid: string }[] = await stack.api.orm.em.fork().execute(
    `select id, uuid from documents where account_id = ? and livemode = false and uuid is not null
          and to_char(created_at at time zone 'America/Mexico_City', 'YYYY-MM') = ?`,
    [account.accountId, month],
  );
  // Invoices and the payment complement of the first test, at least: over EXPORT_STREAM_MAX_DOCUMENTS (2), so the
  // export runs as a workflow.
  expect(stamped.length).toBeGreaterThanOrEqual(4);

  const page = await signedIn();
  await page.goto(url('/documents'));
  const monthForm = page.locator('form', { has: page.getByLabel('Exportar un mes') });
  await monthForm.getByLabel('Exportar un mes').fill(month);
  await monthForm.getByRole('button', { name: 'ZIP (XML y PDF)' }).click();
  // The export's page: it reloads itself until the file is ready.
  await page.waitForURL(/\/exports\/exp_[0-9A-Z]+$/);
  const exportId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByTestId('export-download').waitFor({ timeout: 90_000 });
  await expect(page.getByTestId('export-status').innerText()).resolves.toBe('Listo');
  await checkPage(page, 'export');
  const [zipDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-download').click(),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-export-'));
  const zip = path.join(dir, 'month.zip');
  await zipDownload.saveAs(zip);
  // Served by the API's signed file URL, not by the console.
  expect(zipDownload.url()).toMatch(
    new RegExp(`^${stack.api.url}/files/.+/exports/${exportId}/.+\\.zip\\?expires=`),
  );
  execFileSync('unzip', ['-tq', zip]);
  const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
  expect(names).toEqual(stamped.flatMap((d) => [`${d.uuid}.pdf`, `${d.uuid}.xml`]).sort());
  const xsd = path.join(defaultSatDir(), 'xml', 'cfdi40-bundle.xsd');
  for (const { id, uuid } of stamped) {
    const xmlFile = path.join(dir, `${uuid}.xml`);
    fs.writeFileSync(xmlFile, execFileSync('unzip', ['-p', zip, `${uuid}.xml`]));
    execFileSync('xmllint', ['--noout', '--schema', xsd, xmlFile], { stdio: 'pipe' });
    // The document's own stamped XML, byte for byte.
    const [{ stamped_xml }] = (await stack.api.orm.em
      .fork()
      .execute('select stamped_xml from documents where id = ?', [id])) as [{ stamped_xml: string }];
    expect(fs.readFileSync(xmlFile, 'utf8')).toBe(stamped_xml);
    expect(stamped_xml).toContain(`UUID="${uuid}"`);
    expect(
      execFileSync('unzip', ['-p', zip, `${uuid}.pdf`])
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  }

  // Another account's export is as absent as a missing one, its page and its download.
  const other = await stampingAccount(stack);
  const foreign = await createDocumentExport(
    stack.api.orm.em.fork(),
    { accountId: other.accountId, livemode: false, keyId: 'test', merchantIds: null },
    { format: 'csv', search: {}, requestedBy: null },
  );
  expect((await page.request.get(url(`/exports/${foreign.id}`))).status()).toBe(404);
  expect((await page.request.get(url(`/exports/${foreign.id}/download`))).status()).toBe(404);

  // The same month as CSV, from the same form: a header and one line per document of the month, amounts in pesos.
  const started = await page.request.post(url('/documents/export/csv'), { form: { month } });
  expect(started.url()).toMatch(/\/exports\/exp_[0-9A-Z]+$/);
  const csvPage = new URL(started.url()).pathname;
  await waitFor(
    async () =>
      (await (await page.request.get(url(csvPage))).text()).includes('data-testid="export-download"') ||
      undefined,
    { timeoutMs: 60_000, what: 'the CSV export' },
  );
  const csv = await page.request.get(url(`${csvPage}/download`));
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe(
    'id,createdAt,type,kind,status,serieFolio,uuid,receiverRfc,receiverName,currency,amount,outstandingBalance,merchantId',
  );
  expect(lines.slice(1).filter((l) => l.includes(',1820.00,') || l.includes(',1820,')).length).toBe(1);
  expect(lines.length - 1).toBeGreaterThanOrEqual(stamped.length);
  expect((await page.request.get(url('/documents/export/zip?month=2026-13'))).status()).toBe(400);
  // A direct link streams only small sets.
  expect((await page.request.get(url(`/documents/export/csv?month=${month}`))).status()).toBe(413);

  // The ledger for people: each stamp's timbre in pesos at Mexico City time, with the document's UUID and serie-folio.
  const ledger = (await (await page.request.get(url('/ledger/export?units=pesos'))).text())
    .trim()
    .split('\r\n');
  expect(ledger[0]).toBe(
    'id,localTime,type,amountPesos,balanceAfterPesos,referenceType,referenceId,uuid,serieFolio,note',
  );
  const [consume] = await stack.api.orm.em.fork().execute(
    `select t.id, d.id as document_id, t.delta_centavos, t.balance_after_centavos, d.uuid, d.serie || '-' || d.folio as serie_folio,
              to_char(t.created_at at time zone 'America/Mexico_City', 'YYYY-MM-DD HH24:MI:SS') as local_time
         from transactions t join documents d on d.id = t.reference_id
        where t.account_id = ? and t.livemode = false and t.type = 'consume' order by t.seq desc limit 1`,
    [account.accountId],
  );
  if (!consume) throw new Error('the account has no consume transaction');
  const pesos = (centavos: string) => (Number(centavos) / 100).toFixed(2);
  expect(ledger.find((line) => line.startsWith(`${consume.id},`))?.split(',')).toEqual([
    consume.id,
    consume.local_time,
    'consume',
    pesos(consume.delta_centavos),
    pesos(consume.balance_after_centavos),
    expect.any(String),
    consume.document_id,
    consume.uuid,
    consume.serie_folio,
    expect.any(String),
  ]);
  await page.context().close();
  fs.rmSync(dir, { recursive: true, force: true });
}, 180_000);

it('buys timbres: the billing page starts a Stripe Checkout (stripe-mock) for the amount and lists the purchase', async () => {
  const page = await signedIn();
  await page.goto(url('/billing'));
  await checkPage(page, 'billing');
  // Below the spec's minimum: refused in the page's language, nothing created.
  await page.getByLabel('Monto a cargar (MXN)').fill('50');
  await page.getByRole('button', { name: 'Pagar con Stripe' }).click();
  await page.getByText('El monto debe ser de $100.00 a $50,000.00 MXN.').waitFor();

  // Stripe's hosted page is outside the test: the browser's request for it is answered here.
  await page.route(/^https:\/\/checkout\.stripe\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stripe</title>' }),
  );
  await page.getByLabel('Monto a cargar (MXN)').fill('1,500.50');
  await Promise.all([
    page.waitForURL(/^https:\/\/checkout\.stripe\.com\//),
    page.getByRole('button', { name: 'Pagar con Stripe' }).click(),
  ]);
  const purchases: { id: string }[] = await stack.api.orm.em
    .fork()
    .execute(
      'select id, status, amount_centavos::int as amount, stripe_checkout_session_id from purchases where account_id = ?',
      [account.accountId],
    );
  expect(purchases).toEqual([
    {
      id: expect.stringMatching(/^pur_/),
      status: 'pending',
      amount: 150050,
      stripe_checkout_session_id: expect.stringMatching(/^cs_/),
    },
  ]);
  const audit = await stack.api.orm.em
    .fork()
    .execute(
      "select target, detail from console_audit where actor_email = ? and action = 'billing.checkout'",
      [financeUser],
    );
  expect(audit).toEqual([{ target: purchases[0]!.id, detail: { amountCentavos: 150050 } }]);

  await page.goto(url('/billing'));
  await expect(page.getByTestId(`purchase-${purchases[0]!.id}`).innerText()).resolves.toMatch(
    /Pendiente\s+\$1,500\.50 MXN/,
  );
  await checkPage(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await checkPage(page);
  await page.context().close();
}, 120_000);

it('sets a low-balance warning on the billing page: the banner shows on every page while the balance is under it', async () => {
  const page = await signedIn();
  await page.goto(url('/documents'));
  await expect(page.getByTestId('low-balance-banner').count()).resolves.toBe(0);
  const [{ balance }] = (await stack.api.orm.em
    .fork()
    .execute(
      'select balance_centavos::int as balance from balances where account_id = ? and livemode = false',
      [account.accountId],
    )) as [{ balance: number }];
  await page.goto(url('/billing'));
  const form = page.getByTestId('low-balance-form');
  // A threshold a peso above the balance: under it at once.
  await form.getByLabel('Avisar debajo de (MXN)').fill(((balance + 100) / 100).toFixed(2));
  await form.getByLabel('Correo para el aviso').fill('finanzas@example.mx');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.getByText('Aviso guardado.').waitFor();
  await page.goto(url('/documents'));
  await expect(page.getByTestId('low-balance-banner').innerText()).resolves.toMatch(/^Saldo bajo:/);
  await checkPage(page);
  const audit = await stack.api.orm.em
    .fork()
    .execute("select detail from console_audit where actor_email = ? and action = 'billing.low_balance'", [
      financeUser,
    ]);
  expect(audit).toEqual([{ detail: { thresholdCentavos: balance + 100, email: 'finanzas@example.mx' } }]);

  // Emptied: no warning, no banner.
  await page.goto(url('/billing'));
  await form.getByLabel('Avisar debajo de (MXN)').fill('');
  await form.getByLabel('Correo para el aviso').fill('');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await page.getByText('Aviso guardado.').waitFor();
  await expect(page.getByTestId('low-balance-banner').count()).resolves.toBe(0);
  await page.context().close();
}, 120_000);

it("pays a USD invoice from its page in dollars at the day's rate: its balance in USD, the aging in MXN at its TipoCambio", async () => {
  const page = await signedIn();
  const pesos = (text: string) => Number(text.replace(/[^0-9.]/g, ''));
  const agingTotal = async () => {
    await page.goto(url('/receivables'));
    return pesos((await agingRow(page, 'URE180429TM6'))[4]!);
  };
  const before = await agingTotal();
  const invoice = await post(
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      moneda: 'USD',
      tipoCambio: 17.25,
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 116 },
      ],
    }),
  );
  expect({ status: invoice.status, currency: invoice.body.currency }).toEqual({
    status: 201,
    currency: 'USD',
  });
  // 116.00 USD at the invoice's 17.25: 2,001.00 MXN more owed.
  expect((await agingTotal()) - before).toBeCloseTo(2001, 2);

  await page.goto(url(`/documents/${invoice.body.id}`));
  await expect(page.getByTestId('document-balance').innerText()).resolves.toBe('$116.00 USD');
  const form = page.getByRole('form', { name: 'Registrar pago (complemento)' });
  await expect(form.getByLabel(/^Monto/).inputValue()).resolves.toBe('116.00');
  await checkPage(page);
  await form.getByLabel(/^Monto/).fill('58');
  await form.getByLabel(/^Tipo de cambio/).fill('17.30');
  await form.getByRole('button', { name: 'Registrar pago (complemento)' }).click();
  await form.getByRole('status').getByRole('link').click();
  await page.waitForURL(/\/documents\/pay_/);
  const paymentId = new URL(page.url()).pathname.split('/').pop()!;
  await waitFor(
    async () =>
      (await stack.api.request('GET', `/v1/payments/${paymentId}`, { key: account.testKey })).body.status ===
      'stamped'
        ? true
        : undefined,
    { what: 'the USD payment stamped' },
  );
  const payment = await stack.api.request('GET', `/v1/payments/${paymentId}`, { key: account.testKey });
  expect(payment.body).toMatchObject({ monto: 58, currency: 'USD', tipoCambioP: 17.3, saldoInsoluto: 58 });

  await page.goto(url(`/documents/${invoice.body.id}`));
  await expect(page.getByTestId('document-balance').innerText()).resolves.toBe('$58.00 USD');
  await expect(page.getByTestId(`related-amount-${paymentId}`).innerText()).resolves.toBe('$58.00 USD');
  expect((await agingTotal()) - before).toBeCloseTo(1000.5, 2);
  await page.context().close();
}, 120_000);
