import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createConsoleUser, generatePassword } from '@cfdi/services';
import { newMerchant } from '@cfdi/api/test/merchant-fixtures';
import { startStack, type StackHarness } from '@cfdi/api/test/stack';
import { checkPage, launchBrowser, openPage, signIn } from './browser';
import { consoleEnvFor, startConsole, type RunningConsole } from './console-server';

// The receipts (notas de venta) pages. A port of its own: the other console suites (3310–3313) may run at once.
const PORT = Number(process.env.TEST_CONSOLE_RECEIPTS_PORT ?? 3314);
const PHONE = { width: 390, height: 844 };

let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
const users = { finance: '', other: '' };
const password = generatePassword();
const tag = Date.now().toString(36);
const receipts = { sold: '', kept: '', foreign: '' };

/** A receipt made through the API (the services' createReceipt), as a till would. */
async function sale(key: string, merchantId: string, branch: string): Promise<string> {
  const res = await stack.api.request('POST', '/v1/receipts', {
    key,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      merchantId,
      formaPago: '01',
      branch,
      externalId: `venta-${tag}-${branch}`,
      items: [{ productCode: '50192100', unitCode: 'H87', description: 'Café', quantity: 2, unitPrice: 58 }],
    },
  });
  if (res.status !== 201) throw new Error(`receipt not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

beforeAll(async () => {
  stack = await startStack();
  const account = await stack.api.newAccount();
  const other = await stack.api.newAccount();
  const em = () => stack.api.orm.em.fork();
  const user = async (accountId: string) =>
    (
      await createConsoleUser(em(), {
        email: `finance-${accountId}-${tag}@example.mx`,
        password,
        role: 'finance',
        accountId,
      })
    ).email;
  users.finance = await user(account.accountId);
  users.other = await user(other.accountId);
  const merchant = await newMerchant(stack.api, account.testKey);
  receipts.sold = await sale(account.testKey, merchant.id, 'Centro');
  receipts.kept = await sale(account.testKey, merchant.id, 'Norte');
  receipts.foreign = await sale(other.testKey, (await newMerchant(stack.api, other.testKey)).id, 'Sur');
  consoleApp = await startConsole(consoleEnvFor(stack), PORT);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stack?.close();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;
const sql = <Row>(query: string, params: unknown[]): Promise<Row[]> =>
  stack.api.orm.em.fork().execute(query, params);

async function signedIn(email: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openPage(browser, viewport);
  await signIn(page, consoleApp.url, email, password);
  return page;
}

it('lists the receipts with their status, shows the key and link, and cancels only after confirming', async () => {
  const page = await signedIn(users.finance);
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Notas de venta' }).click();
  await page.waitForURL(/\/receipts$/);
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe('1–2 de 2 resultados');
  const row = page.getByTestId(`receipt-${receipts.sold}`);
  await expect(row.getByTestId('receipt-status').textContent()).resolves.toBe('Abierta');
  await expect(row.textContent()).resolves.toContain('Centro');
  // A filter by branch keeps the one sale.
  await checkPage(page, 'receipts');
  await page.goto(url('/receipts?branch=Norte'));
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe('1–1 de 1 resultados');
  expect(await page.getByTestId(`receipt-${receipts.kept}`).count()).toBe(1);

  await page.goto(url('/receipts'));
  await row.getByRole('link').first().click();
  await page.waitForURL(new RegExp(`/receipts/${receipts.sold}$`));
  const { key } = (await sql<{ key: string }>('select key from receipts where id = ?', [receipts.sold]))[0]!;
  await expect(page.getByTestId('receipt-key').inputValue()).resolves.toBe(key);
  await expect(page.getByTestId('receipt-url').inputValue()).resolves.toMatch(
    new RegExp(`^https?://.+/r/${key}$`),
  );
  await expect(page.getByTestId('receipt-total').textContent()).resolves.toBe('$116.00 MXN');
  await expect(page.getByTestId('receipt-items').textContent()).resolves.toContain('Café');
  // The ticket the API prints, through the console.
  const ticket = await page.request.get(url(`/receipts/${receipts.sold}/ticket/txt`));
  expect(ticket.status()).toBe(200);
  expect(await ticket.text()).toContain('116.00');
  const pdf = await page.request.get(url(`/receipts/${receipts.sold}/ticket/pdf`));
  expect({ status: pdf.status(), type: pdf.headers()['content-type'] }).toEqual({
    status: 200,
    type: 'application/pdf',
  });
  await checkPage(page, 'receipt');

  // "Cancel" asks first: nothing changes until the confirmation's button.
  await page.getByTestId('receipt-cancel').click();
  await page.waitForURL(/[?&]cancel=1/);
  await expect(page.getByTestId('cancel-confirmation').isVisible()).resolves.toBe(true);
  await checkPage(page);
  const statusOf = async (id: string) =>
    (await sql<{ status: string }>('select status from receipts where id = ?', [id]))[0]!.status;
  await expect(statusOf(receipts.sold)).resolves.toBe('open');
  await page.getByRole('button', { name: 'Sí, cancelar la nota de venta' }).click();
  await page.waitForURL((u) => u.pathname === `/receipts/${receipts.sold}` && !u.search);
  await expect(page.getByTestId('receipt-status').textContent()).resolves.toBe('Cancelada');
  await expect(statusOf(receipts.sold)).resolves.toBe('cancelled');
  // A cancelled receipt offers no cancel, and the list says so.
  expect(await page.getByTestId('receipt-cancel').count()).toBe(0);
  await page.goto(url('/receipts?status=cancelled'));
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe('1–1 de 1 resultados');
  await expect(
    page.getByTestId(`receipt-${receipts.sold}`).getByTestId('receipt-status').textContent(),
  ).resolves.toBe('Cancelada');
  const audit = await sql<{ n: number }>(
    `select count(*)::int as n from console_audit where action = 'receipt.cancel' and target = ?`,
    [receipts.sold],
  );
  expect(audit[0]!.n).toBe(1);
  await page.context().close();
}, 60_000);

it("another account's receipt is not found, nor its ticket", async () => {
  const page = await signedIn(users.other);
  const response = await page.goto(url(`/receipts/${receipts.sold}`));
  expect(response?.status()).toBe(404);
  expect((await page.request.get(url(`/receipts/${receipts.sold}/ticket/pdf`))).status()).toBe(404);
  // Its own list holds only its own sale.
  await page.goto(url('/receipts'));
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe('1–1 de 1 resultados');
  expect(await page.getByTestId(`receipt-${receipts.foreign}`).count()).toBe(1);
  await page.context().close();
}, 60_000);

it('the receipts pages pass axe without sideways scroll, in Spanish and English, at 1280 and 390 px', async () => {
  for (const viewport of [undefined, PHONE]) {
    const page = await signedIn(users.finance, viewport);
    for (const lang of ['es', 'en']) {
      await page.context().addCookies([{ name: 'cfdi_lang', value: lang, url: consoleApp.url }]);
      for (const path of ['/receipts', `/receipts/${receipts.sold}`, `/receipts/${receipts.kept}?cancel=1`]) {
        const response = await page.goto(url(path));
        expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
        await checkPage(page);
      }
      await expect(page.getByTestId('receipt-status').textContent()).resolves.toBe(
        lang === 'es' ? 'Abierta' : 'Open',
      );
    }
    await page.context().close();
  }
}, 120_000);
