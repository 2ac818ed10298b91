import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startMailpit, type RunningMailpit } from '@cfdi/devstack';
import { mailpitClient } from '@cfdi/api/test/mailpit-client';
import { attributesOf, stampedXml } from '@cfdi/api/test/record-fixtures';
import { idempotencyKey, stampingAccount, startStack, type StackHarness } from '@cfdi/api/test/stack';
import { checkPage, launchBrowser } from './browser';
import { portalEnvFor, startPortal, type RunningPortal } from './portal-server';

// Ports of their own: the console suites use 3310–3312. The second portal has low limits for the 429 test.
const PORT = Number(process.env.TEST_PORTAL_PORT ?? 3410);
const LIMITED_PORT = PORT + 2;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let mailpit: RunningMailpit;
let stack: StackHarness;
let portal: RunningPortal;
let limited: RunningPortal;
let browser: Browser;
let account: Awaited<ReturnType<typeof stampingAccount>>;
let other: Awaited<ReturnType<typeof stampingAccount>>;
const tag = Date.now().toString(36);
const customerEmail = `portal-${tag}@example.mx`;
/** The first test's receipt, invoiced: the uniform-answer test shows it refused like an unknown key. */
let invoicedKey = '';

beforeAll(async () => {
  mailpit = await startMailpit(() => undefined);
  const mail = {
    SMTP_URL: `smtp://127.0.0.1:${mailpit.smtpPort}`,
    MAIL_FROM: 'Facturas <facturas@example.com>',
  };
  stack = await startStack(mail);
  [account, other] = [await stampingAccount(stack), await stampingAccount(stack)];
  const env = { ...portalEnvFor(stack), ...mail };
  portal = await startPortal(
    { ...env, PORTAL_RATE_LIMIT_PER_IP: '10000', PORTAL_RATE_LIMIT_PER_KEY: '10000' },
    PORT,
  );
  // Behind a "proxy" (the test itself) so each test names its own client address in X-Forwarded-For.
  limited = await startPortal(
    { ...env, TRUSTED_PROXIES: '127.0.0.1', PORTAL_RATE_LIMIT_PER_IP: '5', PORTAL_RATE_LIMIT_PER_KEY: '3' },
    LIMITED_PORT,
  );
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await portal?.close();
  await limited?.close();
  await stack?.close();
  await mailpit?.stop();
}, 60_000);

const url = (p: string) => `${portal.url}${p}`;

/** A receipt of the account's merchant, as a shop's till creates it through the API. */
async function receipt(
  who: { testKey: string; merchantId: string },
  description: string,
  unitPrice: number,
): Promise<{ id: string; key: string; status: string }> {
  const res = await stack.api.request('POST', '/v1/receipts', {
    key: who.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: {
      merchantId: who.merchantId,
      formaPago: '01',
      branch: 'Sucursal Centro',
      items: [{ productCode: '50192100', unitCode: 'H87', description, quantity: 2, unitPrice }],
    },
  });
  if (res.status !== 201) throw new Error(`receipt: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; key: string; status: string };
}

const receiptStatus = async (who: { testKey: string }, id: string) =>
  (await stack.api.request('GET', `/v1/receipts/${id}`, { key: who.testKey })).body as {
    status: string;
    invoiceId: string | null;
  };

async function openPage(viewport = DESKTOP, locale = 'es-MX'): Promise<Page> {
  const context = await browser.newContext({ viewport, locale, acceptDownloads: true });
  return context.newPage();
}

/** Fills the customer's form (the test RFC the sandbox PAC knows) and submits it. */
async function fillCustomer(page: Page, overrides: { rfc?: string } = {}) {
  const form = page.getByRole('form', { name: 'Tus datos fiscales' });
  await form.getByLabel('RFC').fill(overrides.rfc ?? 'ure180429tm6');
  await form.getByLabel('Nombre o razón social').fill('Universidad Robotica Española');
  await form.getByLabel('Código postal del domicilio fiscal').fill('86991');
  await form.getByLabel('Régimen fiscal').selectOption('601');
  await form.getByLabel('Uso del CFDI').selectOption('G03');
  await form.getByLabel('Correo electrónico').fill(customerEmail);
  return form;
}

/** The stamped invoice's page, once the stamp workflow answered (the page reloads itself while it stamps). */
async function waitForInvoice(page: Page) {
  await page.waitForURL(/\/f\/[A-Za-z0-9_-]{32}$/);
  await page.getByRole('heading', { name: 'Tu factura está lista' }).waitFor({ timeout: 60_000 });
}

it('a customer types a key as printed (lowercase, O for 0, L for 1), sees the ticket and gets the stamped CFDI by download and e-mail', async () => {
  const sale = await receipt(account, 'Torta de milanesa', 58);
  const page = await openPage();
  await page.goto(url('/'));
  await checkPage(page);
  // As a customer may type it: lowercase, in groups, with the letters people read for 0 and 1.
  const typed = sale.key.match(/.{4}/g)!.join('-').toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
  await page.getByLabel('Clave del ticket').fill(typed);
  await page.getByRole('button', { name: 'Buscar ticket' }).click();
  await page.waitForURL(url(`/r/${sale.key}`));
  await page.getByRole('heading', { name: 'ESCUELA KEMPER URGATE' }).waitFor();
  await expect(page.getByTestId(`ticket-${sale.key}`).textContent()).resolves.toMatch(
    /Torta de milanesa.*\$116\.00 MXN/,
  );
  // TEST_PORTAL_SCREENSHOTS=1 writes the README's pictures (docs/portal/).
  await checkPage(page, 'ticket');

  // The regime list follows the RFC typed: a 12-character RFC (persona moral) offers no 605 (sueldos, físicas).
  const form = await fillCustomer(page);
  await expect(form.getByLabel('Régimen fiscal').locator('option[value="605"]').count()).resolves.toBe(0);
  await form.getByRole('button', { name: 'Generar factura' }).click();
  await waitForInvoice(page);
  await expect(page.getByTestId('receiver').textContent()).resolves.toBe(
    'URE180429TM6 · UNIVERSIDAD ROBOTICA ESPAÑOLA',
  );
  await checkPage(page, 'invoice');

  // The stamped CFDI's receiver is what the customer typed (capitals, as the SAT registers names).
  const after = await receiptStatus(account, sale.id);
  expect(after.status).toBe('invoiced');
  const xml = await stampedXml(stack, after.invoiceId!);
  expect(attributesOf(xml, 'Receptor')).toMatchObject({
    Rfc: 'URE180429TM6',
    Nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    DomicilioFiscalReceptor: '86991',
    RegimenFiscalReceptor: '601',
    UsoCFDI: 'G03',
  });

  // Downloads: the stamped XML itself and a PDF.
  const [xmlDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar XML' }).click(),
  ]);
  const downloaded = await fetch(url(new URL(xmlDownload.url()).pathname)).then((r) => r.text());
  expect(downloaded).toBe(xml);
  const pdf = await fetch(url(`${new URL(page.url()).pathname}/pdf`));
  expect({ status: pdf.status, type: pdf.headers.get('content-type') }).toEqual({
    status: 200,
    type: 'application/pdf',
  });
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // The e-mail, once however often the page is reloaded.
  await expect(page.getByTestId('emailed').textContent()).resolves.toContain(customerEmail);
  await page.reload();
  const [message] = await mailpitClient(mailpit.webUrl).waitForMessages(customerEmail);
  expect(message!.Attachments.map((a) => a.ContentType).sort()).toEqual([
    'application/pdf',
    'application/xml',
  ]);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await mailpitClient(mailpit.webUrl).messagesTo(customerEmail)).toHaveLength(1);

  // On a phone: the same pages without sideways scroll.
  const phone = await openPage(PHONE);
  await phone.goto(page.url());
  await checkPage(phone);
  await phone.goto(url('/'));
  await checkPage(phone);
  invoicedKey = sale.key;
}, 120_000);

it('two receipts of the same merchant go into one invoice; another merchant’s key is not added', async () => {
  const first = await receipt(account, 'Café americano', 29);
  const second = await receipt(account, 'Pan dulce', 14.5);
  const elsewhere = await receipt(other, 'Jugo', 30);
  const page = await openPage(PHONE);
  await page.goto(url(`/r/${first.key.toLowerCase()}`));
  await page.waitForURL(url(`/r/${first.key}`));

  // Another merchant's ticket: the uniform refusal, nothing about it shown.
  await page.getByLabel('Clave de otro ticket').fill(elsewhere.key);
  await page.getByRole('button', { name: 'Agregar' }).click();
  await expect(page.locator('p.alert[role="alert"]').textContent()).resolves.toMatch(
    /^Ese ticket no se puede agregar/,
  );
  expect(await page.content()).not.toContain('Jugo');
  await checkPage(page);

  await page.getByLabel('Clave de otro ticket').fill(second.key);
  await page.getByRole('button', { name: 'Agregar' }).click();
  await page.waitForURL(url(`/r/${first.key},${second.key}`));
  // 2 × 29 + 2 × 14.50 = 87.00.
  await expect(page.getByTestId('invoice-total').textContent()).resolves.toContain('$87.00 MXN');
  await checkPage(page);

  const form = await fillCustomer(page);
  await form.getByRole('button', { name: 'Generar factura' }).click();
  await waitForInvoice(page);
  const [a, b] = [await receiptStatus(account, first.id), await receiptStatus(account, second.id)];
  expect([a.status, b.status]).toEqual(['invoiced', 'invoiced']);
  expect(a.invoiceId).toBe(b.invoiceId);
  const xml = await stampedXml(stack, a.invoiceId!);
  expect([...xml.matchAll(/<cfdi:Concepto\b[^>]*Descripcion="([^"]*)"/g)].map((m) => m[1])).toEqual([
    'Café americano',
    'Pan dulce',
  ]);
  expect(attributesOf(xml, 'Comprobante')).toMatchObject({ Total: '87.00' });
  expect((await receiptStatus(other, elsewhere.id)).status).toBe('open');
}, 120_000);

it('a merchant’s page wears its logo and brand colour, with text readable on it', async () => {
  const brand = await stampingAccount(stack);
  const logo = await stack.api.request('PUT', `/v1/merchants/${brand.merchantId}/logo`, {
    key: brand.testKey,
    body: {
      logo: readFileSync(path.resolve(__dirname, '../../api/test/fixtures/logo.png')).toString('base64'),
    },
  });
  expect(logo.status).toBe(200);
  const setColor = async (brandColor: string | null) =>
    expect(
      (
        await stack.api.request('PATCH', `/v1/merchants/${brand.merchantId}`, {
          key: brand.testKey,
          body: { brandColor },
        })
      ).status,
    ).toBe(200);
  const sale = await receipt(brand, 'Galletas', 25);
  /** The computed colours of the header's rule and of the submit button, as the browser paints them. */
  const painted = (page: Page) =>
    page.evaluate(() => {
      type El = object;
      const g = globalThis as unknown as {
        document: { querySelector(s: string): El };
        getComputedStyle(e: El): { borderTopColor: string; backgroundColor: string; color: string };
      };
      const button = g.getComputedStyle(g.document.querySelector('button[type="submit"]:not(.secondary)'));
      return {
        rule: g.getComputedStyle(g.document.querySelector('header.merchant')).borderTopColor,
        button: button.backgroundColor,
        buttonText: button.color,
      };
    });

  // A light yellow: black text on the buttons (white would not read on it).
  await setColor('#ffeb3b');
  const page = await openPage();
  await page.goto(url(`/r/${sale.key}`));
  await page.locator('header.merchant img').waitFor();
  expect(await painted(page)).toEqual({
    rule: 'rgb(255, 235, 59)',
    button: 'rgb(255, 235, 59)',
    buttonText: 'rgb(0, 0, 0)',
  });
  await checkPage(page);

  // A dark navy on a phone: white text.
  await setColor('#0d47a1');
  const phone = await openPage(PHONE);
  await phone.goto(url(`/r/${sale.key}`));
  expect(await painted(phone)).toEqual({
    rule: 'rgb(13, 71, 161)',
    button: 'rgb(13, 71, 161)',
    buttonText: 'rgb(255, 255, 255)',
  });
  await checkPage(phone);

  // Without a brand colour: the portal's own blue.
  await setColor(null);
  await page.reload();
  expect(await painted(page)).toMatchObject({ button: 'rgb(29, 79, 145)', buttonText: 'rgb(255, 255, 255)' });
}, 90_000);

it('a stamp the SAT refuses is explained, and the ticket is open again for corrected data', async () => {
  // The sandbox PAC refuses a CFDI whose concept says so, with the SAT's CFDI40145 (receiver name mismatch).
  const sale = await receipt(account, 'Tortas SANDBOX_REJECT_CFDI40145', 40);
  const page = await openPage(PHONE);
  await page.goto(url(`/r/${sale.key}`));
  const form = await fillCustomer(page);
  await form.getByRole('button', { name: 'Generar factura' }).click();
  await page.waitForURL(/\/f\/[A-Za-z0-9_-]{32}$/);
  await page.getByRole('heading', { name: 'El SAT rechazó la factura' }).waitFor({ timeout: 60_000 });
  await expect(page.getByTestId('failure').textContent()).resolves.toMatch(/^CFDI40145 /);
  await checkPage(page);
  expect(await receiptStatus(account, sale.id)).toMatchObject({ status: 'open' });
  await page.getByRole('link', { name: 'Corregir mis datos' }).click();
  await page.waitForURL(url(`/r/${sale.key}`));
  await page.getByRole('heading', { name: 'Tus datos fiscales' }).waitFor();
}, 90_000);

it('an invalid RFC is refused under its field, with what was typed kept', async () => {
  const sale = await receipt(account, 'Agua mineral', 20);
  const page = await openPage();
  await page.goto(url(`/r/${sale.key}`));
  const form = await fillCustomer(page, { rfc: 'XYZ12' });
  await form.getByRole('button', { name: 'Generar factura' }).click();
  await form.locator('[data-path="rfc"]').waitFor();
  await expect(form.locator('[data-path="rfc"]').textContent()).resolves.toBe(
    'Este RFC no es válido. Revísalo en tu Constancia de Situación Fiscal.',
  );
  await expect(form.getByLabel('RFC').getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(form.getByLabel('Código postal del domicilio fiscal').inputValue()).resolves.toBe('86991');
  await checkPage(page);
  expect((await receiptStatus(account, sale.id)).status).toBe('open');
}, 60_000);

it('an unknown, an invoiced and a cancelled key get the same page', async () => {
  expect(invoicedKey).not.toBe('');
  const cancelled = await receipt(account, 'Refresco', 18);
  const res = await stack.api.request('POST', `/v1/receipts/${cancelled.id}/cancel`, {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
  });
  expect(res.status).toBe(200);
  const unknown = 'ABCD'.repeat(4);
  // The page's content byte for byte, and its status (the rest is Next's streaming, chunked as timing has it).
  const answers = await Promise.all(
    [unknown, invoicedKey, cancelled.key, 'not-a-key'].map(async (key) => {
      const response = await fetch(url(`/r/${key}`));
      return { status: response.status, main: /<main>[\s\S]*?<\/main>/.exec(await response.text())?.[0] };
    }),
  );
  expect(answers[0]!.status).toBe(200);
  expect(answers[0]!.main).toContain('Este ticket no se puede facturar aquí');
  for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  const page = await openPage(PHONE);
  await page.goto(url(`/r/${invoicedKey}`));
  await page.getByTestId('unavailable').waitFor();
  await checkPage(page);
}, 60_000);

it('answers 429 after the limit of requests per client address, and per key from many addresses', async () => {
  // Addresses of this run only: a window's counters outlive a test run by up to a minute.
  const net = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const from = (ip: string, path: string) =>
    fetch(`${limited.url}${path}`, { headers: { 'x-forwarded-for': ip } });
  // The limits count per clock minute: a sequence that crossed into the next minute would start a new count.
  const withinOneMinute = async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  };
  // Per address: 5 key lookups a minute, the 6th refused (each a different unknown key).
  await withinOneMinute();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await from(`${net}.7`, `/r/${tag}${i}`.padEnd(19, 'X'))).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  const refused = await from(`${net}.7`, '/r/ABCDABCDABCDABCD');
  expect({ status: refused.status, retryAfter: Number(refused.headers.get('retry-after')) > 0 }).toEqual({
    status: 429,
    retryAfter: true,
  });
  await expect(refused.text()).resolves.toContain('Demasiados intentos');
  // Per key: 3 lookups a minute of one key, even from three different addresses.
  const key = `Z${tag}`.toUpperCase().padEnd(16, 'Z').slice(0, 16);
  const perKey: number[] = [];
  await withinOneMinute();
  for (const ip of [1, 2, 3, 4].map((i) => `${net}.${100 + i}`))
    perKey.push((await from(ip, `/r/${key}`)).status);
  expect(perKey).toEqual([200, 200, 200, 429]);
}, 90_000);

it('speaks English from Accept-Language and switches language with its link', async () => {
  const sale = await receipt(account, 'Galletas', 10);
  const page = await openPage(DESKTOP, 'en-US');
  await page.goto(url(`/r/${sale.key}`));
  await page.getByRole('heading', { name: 'Your tax details' }).waitFor();
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
  await checkPage(page);
  await page.getByRole('link', { name: 'Español' }).click();
  await page.getByRole('heading', { name: 'Tus datos fiscales' }).waitFor();
  await expect(page.locator('html').getAttribute('lang')).resolves.toBe('es-MX');
  await page.getByRole('link', { name: 'English' }).click();
  await page.getByRole('heading', { name: 'Your tax details' }).waitFor();
  await page.goto(url('/r/ABCDABCDABCDABCD'));
  await page.getByRole('heading', { name: 'This receipt cannot be invoiced here' }).waitFor();
  await checkPage(page);
}, 60_000);
