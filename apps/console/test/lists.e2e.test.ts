import type { Browser, Page } from 'playwright-core';
import { createApiKey, createConsoleUser, generatePassword } from '@cfdi/services';
import { CUSTOMER, saved } from '@cfdi/api/test/record-fixtures';
import { startStack, type StackHarness } from '@cfdi/api/test/stack';
import { checkPage, launchBrowser, openPage, signIn } from './browser';
import { consoleEnvFor, startConsole, type RunningConsole } from './console-server';

// The lists' count and pages, the sidebar's choices and the operator pages' fixes. A port of its own: the other
// console suites (3310–3312) may run at the same time.
const PORT = Number(process.env.TEST_CONSOLE_LISTS_PORT ?? 3313);
const PHONE = { width: 390, height: 844 };

let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
let account: { accountId: string; testKey: string };
const users = { finance: '', operator: '', admin: '' };
const password = generatePassword();
const tag = Date.now().toString(36);
const CUSTOMERS = 55;

beforeAll(async () => {
  stack = await startStack();
  account = await stack.api.newAccount();
  const em = () => stack.api.orm.em.fork();
  users.finance = (
    await createConsoleUser(em(), {
      email: `finance-${tag}@example.mx`,
      password,
      role: 'finance',
      accountId: account.accountId,
    })
  ).email;
  // An operator who belongs to an account of their own: the console opens on it.
  users.operator = (
    await createConsoleUser(em(), {
      email: `operator-${tag}@example.mx`,
      password,
      role: 'operator',
      accountId: account.accountId,
    })
  ).email;
  users.admin = (
    await createConsoleUser(em(), {
      email: `admin-${tag}@example.mx`,
      password,
      role: 'admin',
      accountId: account.accountId,
    })
  ).email;
  for (let i = 0; i < CUSTOMERS; i += 11)
    await Promise.all(
      Array.from({ length: Math.min(11, CUSTOMERS - i) }, (_, j) =>
        saved(stack, account.testKey, '/v1/customers', {
          ...CUSTOMER,
          emails: [`c${i + j}-${tag}@example.mx`],
        }),
      ),
    );
  consoleApp = await startConsole(consoleEnvFor(stack), PORT);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stack?.close();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;

async function signedIn(email: string, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await openPage(browser, viewport);
  await signIn(page, consoleApp.url, email, password);
  return page;
}

it('a list shows its count and moves to page 2 and back, keeping the search', async () => {
  const page = await signedIn(users.finance);
  await page.goto(url('/customers'));
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe(`1–50 de ${CUSTOMERS} resultados`);
  expect(await page.locator('[data-testid^="customer-"]').count()).toBe(50);
  expect(await page.getByTestId('page-previous').count()).toBe(0);
  await checkPage(page, 'list-pages');

  await page.getByTestId('page-next').click();
  await page.waitForURL(/[?&]page=2/);
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe(
    `51–${CUSTOMERS} de ${CUSTOMERS} resultados`,
  );
  expect(await page.locator('[data-testid^="customer-"]').count()).toBe(CUSTOMERS - 50);
  expect(await page.getByTestId('page-next').count()).toBe(0);
  // Page 2 holds the rows page 1 did not: together, every customer once.
  const second = await page.locator('[data-testid^="customer-"] td:last-child').allTextContents();
  await page.getByTestId('page-previous').click();
  await page.waitForURL((u) => !u.searchParams.has('page'));
  const first = await page.locator('[data-testid^="customer-"] td:last-child').allTextContents();
  expect(new Set([...first, ...second]).size).toBe(CUSTOMERS);

  // A search is counted too, and its pages keep it; a search that finds nothing says so, with no page links.
  await page.goto(url('/customers?q=ure180'));
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe(`1–50 de ${CUSTOMERS} resultados`);
  await page.getByTestId('page-next').click();
  await page.waitForURL((u) => u.searchParams.get('page') === '2' && u.searchParams.get('q') === 'ure180');
  await page.goto(url('/customers?q=nadie'));
  expect(await page.getByTestId('list-count').count()).toBe(0);
  expect(await page.getByRole('navigation', { name: 'Paginación' }).count()).toBe(0);
  await page.context().close();
}, 60_000);

it('every list page shows its count or its empty text, in both languages, at 1280 and 390 px', async () => {
  for (const viewport of [undefined, PHONE]) {
    // An admin reaches every page (operators have no customers and products, finance users no audit or users).
    const page = await signedIn(users.admin, viewport);
    for (const lang of ['es', 'en']) {
      await page.context().addCookies([{ name: 'cfdi_lang', value: lang, url: consoleApp.url }]);
      for (const path of [
        '/documents',
        '/customers',
        '/products',
        '/ledger',
        '/keys',
        '/users',
        '/webhooks',
        '/failed-files',
        '/connections',
        '/audit',
        '/reconciliation',
        '/merchants',
        '/receivables',
        '/customers?page=2',
      ]) {
        const response = await page.goto(url(path));
        expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
        await checkPage(page);
      }
      // The audit log has rows (this suite's sign-ins): counted.
      await page.goto(url('/audit'));
      await expect(page.getByTestId('list-count').textContent()).resolves.toMatch(
        lang === 'es' ? /^1–\d+ de \d+ resultados$/ : /^1–\d+ of \d+ results$/,
      );
    }
    await page.context().close();
  }
}, 180_000);

it('revoking a key asks first: the key works until the confirmation is accepted', async () => {
  const {
    key: { id },
    secret,
  } = await createApiKey(stack.api.orm.em.fork(), {
    accountId: account.accountId,
    livemode: false,
    note: `revoke-${tag}`,
  });
  const revokedAt = async () =>
    (
      (await stack.api.orm.em.fork().execute('select revoked_at from api_keys where id = ?', [id])) as {
        revoked_at: Date | null;
      }[]
    )[0]!.revoked_at;
  const page = await signedIn(users.finance);
  await page.goto(url('/keys'));
  await page
    .getByTestId(`key-${id}`)
    .getByRole('link', { name: /Revocar/ })
    .click();
  await page.getByTestId('revoke-confirmation').waitFor();
  await checkPage(page);
  // Asked, not done: the key still answers.
  expect(await revokedAt()).toBeNull();
  expect((await stack.api.request('GET', '/v1/balance', { key: secret })).status).toBe(200);
  // Cancelling leaves it as it was.
  await page.getByRole('link', { name: 'Cancelar' }).click();
  await page.waitForURL((u) => !u.searchParams.has('revoke'));
  expect(await page.getByTestId('revoke-confirmation').count()).toBe(0);
  expect(await revokedAt()).toBeNull();

  await page
    .getByTestId(`key-${id}`)
    .getByRole('link', { name: /Revocar/ })
    .click();
  await page.getByRole('button', { name: 'Sí, revocar' }).click();
  await page.waitForURL((u) => !u.searchParams.has('revoke'));
  await expect(page.getByTestId(`key-${id}`).textContent()).resolves.toContain('Revocada');
  expect(await revokedAt()).not.toBeNull();
  expect((await stack.api.request('GET', '/v1/balance', { key: secret })).status).toBe(401);
  await page.context().close();
}, 60_000);

it('the language and the mode apply as soon as they are chosen, with no button', async () => {
  const page = await signedIn(users.finance);
  await page.goto(url('/customers'));
  expect(await page.getByRole('button', { name: 'Aplicar' }).count()).toBe(0);
  await page.getByRole('combobox', { name: 'Idioma', exact: true }).selectOption('en');
  await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/customers');
  await expect(page.getByTestId('list-count').textContent()).resolves.toBe(`1–50 of ${CUSTOMERS} results`);
  await page.getByRole('combobox', { name: 'Mode' }).selectOption('live');
  // Live mode has no customers yet: the same page, now empty.
  await page.getByText('No customers.').waitFor();
  expect(await page.getByTestId('list-count').count()).toBe(0);
  await page.getByRole('combobox', { name: 'Mode' }).selectOption('test');
  await page.getByTestId('list-count').waitFor();
  await checkPage(page);
  await page.context().close();
}, 60_000);

it("an operator's account picker is sorted by name with whole ids and opens on the operator's own account", async () => {
  const page = await signedIn(users.operator);
  const picker = page.getByRole('combobox', { name: 'Cuenta' });
  await expect(picker.inputValue()).resolves.toBe(account.accountId);
  const options = await picker.locator('option').allTextContents();
  const names = options.map((o) => o.replace(/ \(acct_[0-9A-Z]+\)$/, '').toLowerCase());
  expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  expect(options.some((o) => o.endsWith(`(${account.accountId})`))).toBe(true);
  await page.context().close();
}, 60_000);

it('a webhook endpoint whose deliveries keep failing shows it, not "active"', async () => {
  const created = await stack.api.request('POST', '/v1/webhook_endpoints', {
    key: account.testKey,
    body: { url: 'https://hooks.example.com/failing', enabledEvents: ['invoice.cancelled'] },
  });
  expect(created.status).toBe(201);
  const page = await signedIn(users.finance);
  await page.goto(url('/webhooks'));
  const status = page.getByTestId(`endpoint-${created.body.id}`).getByTestId('endpoint-status');
  await expect(status.textContent()).resolves.toBe('Activa');
  await stack.api.orm.em
    .fork()
    .execute(`update webhook_endpoints set failing_since = now() - interval '1 hour' where id = ?`, [
      created.body.id,
    ]);
  await page.reload();
  await expect(status.textContent()).resolves.toMatch(/^Fallando desde /);
  await checkPage(page, 'webhooks');
  await page.context().close();
}, 60_000);
