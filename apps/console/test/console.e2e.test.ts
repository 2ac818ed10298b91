import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FinkokPac } from '@cfdi/pac';
import { createConsoleUser, generatePassword, SANDBOX_CREDENTIALS } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
// The API's own stack harness (sandbox PAC, API, in-process worker): the console is tested against what the API does.
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from '@cfdi/api/test/stack';
import { launchBrowser, seriousA11yViolations, signIn } from './browser';
import { startConsole, type RunningConsole } from './console-server';

const PORT = Number(process.env.TEST_CONSOLE_PORT ?? 3310);
const SCREENSHOTS = process.env.TEST_CONSOLE_SCREENSHOTS ? path.resolve(__dirname, '../../../docs/console') : null;

let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
let account: Awaited<ReturnType<typeof stampingAccount>>;
let stamped: { id: string; uuid: string };
const users = { financeA: '', financeB: '', operator: '' };
const password = generatePassword();

beforeAll(async () => {
  // Reconciliation lookups far in the future: in these tests the operator decides.
  stack = await startStack({ RECONCILIATION_FIRST_LOOKUP_SECONDS: '3600' });
  const config = stack.api.config;
  account = await stampingAccount(stack);
  const other = await stack.api.newAccount();
  const res = await stack.api.request('POST', '/v1/invoices', { key: account.testKey, headers: { 'idempotency-key': idempotencyKey() }, body: invoiceBody(account.merchantId) });
  expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
  stamped = res.body;
  await waitFor(async () => ((await stack.api.request('GET', `/v1/invoices/${stamped.id}`, { key: account.testKey })).body.files.status === 'ready' ? true : undefined), { what: 'files' });
  const tag = Date.now().toString(36);
  const em = () => stack.api.orm.em.fork();
  users.financeA = (await createConsoleUser(em(), { email: `finance-a-${tag}@example.mx`, password, role: 'finance', accountId: account.accountId })).email;
  users.financeB = (await createConsoleUser(em(), { email: `finance-b-${tag}@example.mx`, password, role: 'finance', accountId: other.accountId })).email;
  users.operator = (await createConsoleUser(em(), { email: `operator-${tag}@example.mx`, password, role: 'operator' })).email;
  consoleApp = await startConsole({
    DATABASE_URL: config.databaseUrl, REDIS_URL: config.redisUrl, TEMPORAL_ADDRESS: config.temporal.address, TEMPORAL_TASK_QUEUE: stack.taskQueue,
    PAC_SANDBOX_URL: stack.sandbox.url, RECONCILIATION_FIRST_LOOKUP_SECONDS: '3600',
  }, PORT);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stack?.close();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  return context.newPage();
}

/** No serious or critical axe violation on the page; optionally its screenshot for the docs. */
async function checkPage(page: Page, screenshot?: string) {
  // Next streams a dynamic page's <title> after its body: wait for it like a screen reader would.
  await page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title !== '');
  expect({ url: page.url(), violations: await seriousA11yViolations(page) }).toEqual({ url: page.url(), violations: [] });
  if (screenshot && SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`) });
}

const money = (centavos: number) => `$${(centavos / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} MXN`;

it('a wrong password gets a generic message; signing out ends the session server-side', async () => {
  const page = await newPage();
  await signIn(page, consoleApp.url, users.financeA, `${password}x`);
  await expect(page.getByTestId('login-message').textContent()).resolves.toMatch(/Correo o contraseña incorrectos/);
  await checkPage(page);
  await signIn(page, consoleApp.url, users.financeA, password);
  expect(new URL(page.url()).pathname).toBe('/');
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
  await expect(page.getByTestId('balance-test').getByTestId('balance-amount').textContent()).resolves.toBe(money(balance.balanceCentavos));
  await expect(page.getByTestId('balance-test').getByTestId('timbres-remaining').textContent()).resolves.toBe(String(balance.timbresRemaining));
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
  const [{ stamped_xml: stampedXml }] = (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [stamped.id])) as [{ stamped_xml: string }];
  expect((await xml.body()).toString('utf8')).toBe(stampedXml);
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('download-pdf').click();
  const pdf = await (await pdfDownload).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const apiPdf = (await stack.api.request('GET', `/v1/invoices/${stamped.id}`, { key: account.testKey })).body.files.pdfUrl as string;
  const signed = new URL(apiPdf); // signed for API_PUBLIC_URL; the test API listens elsewhere
  expect(pdf.equals(Buffer.from(await (await fetch(`${stack.api.url}${signed.pathname}${signed.search}`)).arrayBuffer()))).toBe(true);

  await page.goto(url('/ledger'));
  await checkPage(page);
  const csv = (await (await page.request.get(url('/ledger/export'))).text()).trim().split('\r\n');
  const api = (await stack.api.request('GET', '/v1/billing/transactions?limit=100', { key: account.testKey })).body.data as Record<string, unknown>[];
  expect(csv[0]).toBe('id,createdAt,type,deltaCentavos,balanceAfterCentavos,referenceType,referenceId,note');
  expect(csv.slice(1)).toEqual(api.map((t) => [t.id, t.createdAt, t.type, t.deltaCentavos, t.balanceAfterCentavos, t.referenceType ?? '', t.referenceId ?? '', t.note ?? ''].join(',')));
  await page.context().close();
}, 90_000);

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

describe('reconciliation by an operator', () => {
  const fault = (operation: string, kind: string) => fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operation, kind, count: 1 }),
  });
  const row = async (id: string): Promise<any> => (await stack.api.orm.em.fork().execute('select * from documents where id = ?', [id]))[0];
  const ledgerTypes = async (id: string) =>
    ((await stack.api.orm.em.fork().execute('select type from transactions where reference_id = ? order by seq', [id])) as { type: string }[]).map((t) => t.type);

  async function ambiguous(kind: 'process_then_reset' | 'reset'): Promise<string> {
    await fault('stamp', kind);
    const res = await stack.api.request('POST', '/v1/invoices', { key: account.testKey, headers: { 'idempotency-key': idempotencyKey() }, body: invoiceBody(account.merchantId) });
    expect(res.status).toBe(202);
    await waitFor(async () => ((await row(res.body.id)).needs_reconciliation ? true : undefined), { what: 'needsReconciliation' });
    return res.body.id;
  }

  async function decide(page: Page, id: string, decision: 'stamped' | 'not_stamped', uuid: string, note: string) {
    await page.goto(url('/reconciliation'));
    await submitDecision(page, id, decision, uuid, note);
  }

  async function submitDecision(page: Page, id: string, decision: 'stamped' | 'not_stamped', uuid: string, note: string) {
    const card = page.getByTestId(`reconcile-${id}`);
    await card.getByRole('combobox', { name: 'Decidir' }).selectOption(decision);
    await card.getByRole('textbox', { name: 'UUID' }).fill(uuid);
    await card.getByRole('textbox', { name: 'Nota' }).fill(note);
    await card.getByRole('button', { name: 'Decidir' }).click();
    await page.waitForURL(/[?&](done|refused)=/);
  }

  it('resolves one as stamped and one as not stamped, leaving document and ledger as the CLI would; refuses what the CLI refuses', async () => {
    const stampedAtPac = await ambiguous('process_then_reset');
    const neverStamped = await ambiguous('reset');
    const page = await newPage();
    await signIn(page, consoleApp.url, users.operator, password);
    await page.goto(url('/reconciliation'));
    await checkPage(page, 'reconciliation');
    // A second tab keeps the queue as it is now, to decide on a document that will have been resolved meanwhile.
    const stalePage = await page.context().newPage();
    await stalePage.goto(url('/reconciliation'));

    // A UUID the PAC does not know is refused with the reason, and nothing is signalled.
    await decide(page, neverStamped, 'stamped', '0AF3C8D1-1111-4222-8333-944455566677', 'typo');
    await expect(page.getByTestId('reconcile-refused').textContent()).resolves.toMatch(/the PAC cannot confirm 0AF3C8D1-1111-4222-8333-944455566677/);
    expect(await row(neverStamped)).toMatchObject({ status: 'stamping', needs_reconciliation: true, reservation_state: 'reserved' });

    const pac = new FinkokPac({ url: stack.sandbox.url, ...SANDBOX_CREDENTIALS });
    const found = await pac.lookupStamped((await row(stampedAtPac)).sealed_xml);
    pac.close();
    if (found.outcome !== 'stamped') throw new Error(`sandbox should hold the stamp, got ${found.outcome}`);
    await decide(page, stampedAtPac, 'stamped', found.uuid, 'seen in the PAC portal');
    await expect(page.getByTestId('reconcile-done').textContent()).resolves.toContain(stampedAtPac);
    await decide(page, neverStamped, 'not_stamped', '', 'PAC has no record');
    await expect(page.getByTestId('reconcile-done').textContent()).resolves.toContain(neverStamped);

    const confirmed = await waitFor(async () => { const r = await row(stampedAtPac); return r.status === 'stamped' ? r : undefined; }, { what: 'stamped' });
    expect(confirmed).toMatchObject({ uuid: found.uuid.toUpperCase(), needs_reconciliation: false, reservation_state: 'confirmed' });
    expect(await ledgerTypes(stampedAtPac)).toEqual(['consume']);
    const failed = await waitFor(async () => { const r = await row(neverStamped); return r.status === 'stamp_failed' ? r : undefined; }, { what: 'stamp_failed' });
    expect(failed).toMatchObject({ needs_reconciliation: false, reservation_state: 'refunded' });
    expect(await ledgerTypes(neverStamped)).toEqual(['consume', 'refund']);
    const resolutions = await stack.api.orm.em.fork().execute('select document_id, resolution, resolved_by, note from reconciliations where document_id in (?, ?) order by id', [stampedAtPac, neverStamped]);
    expect(resolutions).toEqual([
      { document_id: stampedAtPac, resolution: 'stamped', resolved_by: users.operator, note: 'seen in the PAC portal' },
      { document_id: neverStamped, resolution: 'not_stamped', resolved_by: users.operator, note: 'PAC has no record' },
    ]);

    // A document no longer waiting: a clear message, nothing signalled.
    await submitDecision(stalePage, neverStamped, 'stamped', found.uuid, 'late');
    await expect(stalePage.getByTestId('reconcile-refused').textContent()).resolves.toMatch(new RegExp(`${neverStamped} is not awaiting reconciliation`));
    expect(await ledgerTypes(neverStamped)).toEqual(['consume', 'refund']);
    expect(await row(neverStamped)).toMatchObject({ status: 'stamp_failed' });

    await page.goto(url('/audit'));
    await checkPage(page);
    const actions = await page.getByTestId('audit-row').allTextContents();
    for (const [who, what] of [[users.operator, 'reconciliation.resolve'], [users.operator, 'session.sign_in'], [users.financeA, 'api_key.create'], [users.financeA, 'session.sign_out'], [users.financeA, 'session.sign_in_failed']] as const) {
      expect({ who, what, found: actions.some((text) => text.includes(who) && text.includes(what)) }).toEqual({ who, what, found: true });
    }
    await page.context().close();
  }, 120_000);
});
