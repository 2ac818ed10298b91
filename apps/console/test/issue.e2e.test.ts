import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startMailpit, type RunningMailpit } from '@cfdi/devstack';
import { createConsoleUser, generatePassword } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { mailpitClient } from '@cfdi/api/test/mailpit-client';
import { stampingAccount, startStack, type StackHarness } from '@cfdi/api/test/stack';
import { checkPage, launchBrowser, signIn } from './browser';
import { consoleEnvFor, startConsole, type RunningConsole } from './console-server';

// The tests run in order: the later ones invoice the customer and product the first one saves.
// A port of its own: the console suite (3310) may run at the same time.
const PORT = Number(process.env.TEST_CONSOLE_ISSUE_PORT ?? 3312);
const PHONE = { width: 390, height: 844 };

let mailpit: RunningMailpit;
let stack: StackHarness;
let consoleApp: RunningConsole;
let browser: Browser;
let account: Awaited<ReturnType<typeof stampingAccount>>;
const users = { finance: '', other: '', operator: '' };
const password = generatePassword();
const tag = Date.now().toString(36);
const customerEmail = `cliente-${tag}@example.mx`;

beforeAll(async () => {
  mailpit = await startMailpit(() => undefined);
  const mail = {
    SMTP_URL: `smtp://127.0.0.1:${mailpit.smtpPort}`,
    MAIL_FROM: 'Facturas <facturas@example.com>',
  };
  stack = await startStack(mail);
  account = await stampingAccount(stack);
  const other = await stack.api.newAccount();
  const em = () => stack.api.orm.em.fork();
  const user = async (role: 'finance' | 'operator', accountId?: string) =>
    (
      await createConsoleUser(em(), {
        email: `${role}-${accountId ?? 'ops'}-${tag}@example.mx`,
        password,
        role,
        ...(accountId ? { accountId } : {}),
      })
    ).email;
  users.finance = await user('finance', account.accountId);
  users.other = await user('finance', other.accountId);
  users.operator = await user('operator');
  consoleApp = await startConsole({ ...consoleEnvFor(stack), ...mail }, PORT);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await consoleApp?.close();
  await stack?.close();
  await mailpit?.stop();
}, 60_000);

const url = (p: string) => `${consoleApp.url}${p}`;

async function signedIn(email: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, consoleApp.url, email, password);
  return page;
}

/** Every page at 390 px as well: no sideways scroll, no serious axe violation. */
async function checkOnPhone(email: string, paths: string[]) {
  const phone = await signedIn(email, PHONE);
  for (const path of paths) {
    await phone.goto(url(path));
    await checkPage(phone);
  }
  await phone.context().close();
}

/** The document page shows one of `statuses` (reloaded until it does: the workflow may end after the page). */
async function waitForStatus(page: Page, statuses: string[], what: string) {
  await waitFor(
    async () => {
      if (statuses.includes((await page.getByTestId('document-status').textContent()) ?? '')) return true;
      await page.reload();
      return undefined;
    },
    { what },
  );
}

/**
 * A draft invoice on /issue to the customer and with the product the first test saved (`fill` sets the rest), once its
 * total shows; leaves the page on the draft.
 */
async function draftInvoice(
  page: Page,
  total: string,
  fill: (form: Locator) => Promise<void> = async () => {},
) {
  await page.goto(url('/issue'));
  const invoiceForm = page.getByRole('form', { name: 'Nueva factura' });
  await invoiceForm
    .getByLabel(/^Cliente/)
    .selectOption({ label: 'URE180429TM6 · UNIVERSIDAD ROBOTICA ESPAÑOLA' });
  await invoiceForm
    .getByLabel(/^Producto/)
    .selectOption({ label: `Consultoría en sistemas (CONS-${tag}) · $400.00 MXN` });
  await fill(invoiceForm);
  await expect(page.getByTestId('total').textContent()).resolves.toBe(total);
  await invoiceForm.getByRole('button', { name: 'Guardar borrador' }).click();
  await page.waitForURL(/\/issue\/drafts\/inv_/);
}

const auditActions = async (email: string) =>
  (
    await stack.api.orm.em
      .fork()
      .execute<{ action: string; target: string }[]>(
        'select action, target from console_audit where actor_email = ? and action not like ? order by id',
        [email, 'session.%'],
      )
  ).map((row) => row.action);

it('a finance user saves a customer and a product, invoices them, previews, stamps, e-mails and cancels', async () => {
  const page = await signedIn(users.finance);

  // Customers: a bad postal code is refused by the services and shown under its field, with its path.
  await page.getByRole('link', { name: 'Clientes' }).click();
  await page.waitForURL(/\/customers$/);
  await checkPage(page, 'customers');
  const customerForm = page.getByRole('form', { name: 'Nuevo cliente' });
  await customerForm.getByLabel('RFC').fill('URE180429TM6');
  await customerForm.getByLabel('Razón social').fill('UNIVERSIDAD ROBOTICA ESPAÑOLA');
  await customerForm.getByLabel('Régimen fiscal').selectOption('601');
  await customerForm.getByLabel('Código postal').fill('0000');
  await customerForm.getByLabel('Correos (separados por comas)').fill(customerEmail);
  await customerForm.getByRole('button', { name: 'Crear' }).click();
  await expect(customerForm.locator('[data-path="/zip"]').textContent()).resolves.toMatch(/\S/);
  await expect(customerForm.getByLabel('Código postal').getAttribute('aria-invalid')).resolves.toBe('true');
  await customerForm.getByLabel('Código postal').fill('86991');
  await customerForm.getByRole('button', { name: 'Crear' }).click();
  await page.getByTestId('customer-URE180429TM6').waitFor();
  await checkPage(page);

  // Editing it: the form on its own page.
  await page.getByRole('link', { name: 'URE180429TM6' }).click();
  await page.waitForURL(/\/customers\/cus_/);
  const customerPath = new URL(page.url()).pathname;
  await checkPage(page, 'customer');
  const editForm = page.getByRole('form', { name: 'Editar cliente' });
  await editForm
    .getByLabel('Correos (separados por comas)')
    .fill(`${customerEmail}, cobranza-${tag}@example.mx`);
  await editForm.getByRole('button', { name: 'Guardar' }).click();
  await editForm.getByRole('status').or(editForm.getByRole('alert')).waitFor();
  expect(await editForm.getByRole('alert').allTextContents()).toEqual([]);

  // Products: the SAT key is searched in the catalog as typed.
  await page.goto(url('/products'));
  await checkPage(page, 'products');
  const productForm = page.getByRole('form', { name: 'Nuevo producto' });
  await productForm.getByLabel('Descripción').fill('Consultoría en sistemas');
  await productForm.getByLabel('Clave de producto o servicio (SAT)').pressSequentially('consultor');
  await waitFor(
    async () => ((await page.locator('#productCode-matches option').count()) > 0 ? true : undefined),
    {
      what: 'catalog matches for "consultor"',
    },
  );
  await productForm.getByLabel('Clave de producto o servicio (SAT)').fill('81111500');
  await productForm.getByLabel('Clave de unidad (SAT)').fill('E48');
  await productForm.getByLabel(/^Precio/).fill('400');
  await productForm.getByLabel('SKU').fill(`CONS-${tag}`);
  await productForm.getByRole('button', { name: 'Crear' }).click();
  await page.getByTestId(`product-CONS-${tag}`).waitFor();

  // The invoice: saved customer, saved product, totals per tax from the services' engine as the form changes.
  await page.getByRole('link', { name: 'Nueva factura' }).click();
  await page.waitForURL(/\/issue$/);
  const invoiceForm = page.getByRole('form', { name: 'Nueva factura' });
  await invoiceForm
    .getByLabel(/^Cliente/)
    .selectOption({ label: 'URE180429TM6 · UNIVERSIDAD ROBOTICA ESPAÑOLA' });
  await invoiceForm
    .getByLabel(/^Producto/)
    .selectOption({ label: `Consultoría en sistemas (CONS-${tag}) · $400.00 MXN` });
  await invoiceForm.getByLabel('Cantidad').fill('2');
  // 2 × $400.00 with IVA included: $689.66 + 16 % IVA $110.34 = $800.00.
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$800.00 MXN');
  await expect(page.getByTestId('tax-IVA-16 %').textContent()).resolves.toBe('$110.34 MXN');
  await checkPage(page, 'issue-invoice');
  await invoiceForm.getByRole('button', { name: 'Guardar borrador' }).click();
  await page.waitForURL(/\/issue\/drafts\/inv_/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$800.00 MXN');
  await checkPage(page, 'draft');
  await checkOnPhone(users.finance, [`/issue/drafts/${id}`]);

  // The draft's PDF preview is a PDF.
  const preview = await page.request.get(url(`/issue/drafts/${id}/preview`));
  expect({ status: preview.status(), type: preview.headers()['content-type'] }).toEqual({
    status: 200,
    type: 'application/pdf',
  });
  expect((await preview.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Stamp: the document page, stamped by the workflow (reloaded if the wait ran out first).
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(new RegExp(`/documents/${id}$`));
  await waitForStatus(page, ['Timbrado'], 'the invoice stamped');
  await expect(page.getByTestId('document-uuid').textContent()).resolves.toMatch(/^[0-9A-F-]{36}$/);
  await checkPage(page, 'document-actions');

  // E-mail it to the customer's address: the message arrives in Mailpit with the PDF and XML attached.
  const emailForm = page.getByRole('form', { name: 'Enviar por correo' });
  await emailForm.getByRole('button', { name: 'Enviar por correo' }).click();
  await expect(emailForm.getByRole('status').textContent()).resolves.toContain(customerEmail);
  const [message] = await mailpitClient(mailpit.webUrl).waitForMessages(customerEmail);
  expect(message!.Attachments.map((a) => a.ContentType).sort()).toEqual(
    expect.arrayContaining(['application/pdf']),
  );

  // Cancel: motive 01 needs the replacing UUID (the services' message under that field), then motive 02.
  const cancelForm = page.getByRole('form', { name: 'Cancelar ante el SAT' });
  await cancelForm.getByLabel(/^Motivo/).selectOption('01');
  await cancelForm.getByRole('button', { name: 'Cancelar ante el SAT' }).click();
  await expect(cancelForm.locator('[data-path="/folioSustitucion"]').textContent()).resolves.toMatch(
    /motivo 01/,
  );
  await cancelForm.getByLabel(/^Motivo/).selectOption('02');
  await cancelForm.getByRole('button', { name: 'Cancelar ante el SAT' }).click();
  await waitForStatus(page, ['Cancelado', 'Cancelación pendiente'], 'the invoice cancelled');
  const [row] = await stack.api.orm.em
    .fork()
    .execute<{ cancellation: { motivo: string } }[]>('select cancellation from documents where id = ?', [id]);
  expect(row!.cancellation.motivo).toBe('02');

  // Every change was audited, as the user who made it.
  expect(await auditActions(users.finance)).toEqual([
    'customer.create',
    'customer.update',
    'product.create',
    'document.draft_create',
    'document.stamp',
    'document.email',
    'document.cancel',
  ]);

  // The same pages in English and on a phone.
  await page.context().addCookies([{ name: 'cfdi_lang', value: 'en', url: consoleApp.url }]);
  await page.goto(url('/customers'));
  await page.getByRole('heading', { name: 'Customers' }).waitFor();
  await checkPage(page);
  for (const [path, heading] of [
    ['/products', 'Products'],
    ['/issue', 'New invoice'],
    [customerPath, /^Edit customer/],
    [`/documents/${id}`, 'Cancellation'],
  ] as const) {
    await page.goto(url(path));
    await page.getByRole('heading', { name: heading }).waitFor();
    await checkPage(page);
  }
  await checkOnPhone(users.finance, ['/customers', customerPath, '/products', '/issue', `/documents/${id}`]);

  // Another account's finance user finds none of it; an operator has no issue pages.
  const other = await signedIn(users.other);
  for (const path of [customerPath, `/issue/drafts/${id}`, `/documents/${id}`]) {
    const response = await other.goto(url(path));
    expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
  }
  expect((await other.request.get(url(`/issue/drafts/${id}/preview`))).status()).toBe(404);
  const operator = await signedIn(users.operator);
  expect((await operator.goto(url('/issue')))?.status()).toBe(404);
  expect((await operator.goto(url('/customers')))?.status()).toBe(404);
}, 240_000);

it('a product is deleted from its page and leaves the list', async () => {
  const page = await signedIn(users.finance);
  await page.goto(url('/products'));
  const productForm = page.getByRole('form', { name: 'Nuevo producto' });
  await productForm.getByLabel('Descripción').fill('Pieza suelta');
  await productForm.getByLabel('Clave de producto o servicio (SAT)').fill('43211503');
  await productForm.getByLabel('Clave de unidad (SAT)').fill('H87');
  await productForm.getByLabel(/^Precio/).fill('10');
  await productForm.getByLabel('SKU').fill(`DEL-${tag}`);
  await productForm.getByRole('button', { name: 'Crear' }).click();
  await page.getByTestId(`product-DEL-${tag}`).getByRole('link').click();
  await page.waitForURL(/\/products\/prod_/);
  await checkPage(page, 'product');
  await checkOnPhone(users.finance, [new URL(page.url()).pathname]);
  await page.getByRole('button', { name: 'Eliminar' }).click();
  await page.waitForURL(/\/products$/);
  await expect(page.getByTestId(`product-DEL-${tag}`).count()).resolves.toBe(0);
  expect(await auditActions(users.finance)).toEqual(expect.arrayContaining(['product.delete']));
}, 120_000);

it('a PPD invoice gets a payment complement and a credit note from its page', async () => {
  const page = await signedIn(users.finance);
  // A PPD invoice to the customer saved by the first test, with its product.
  await draftInvoice(page, '$800.00 MXN', async (form) => {
    await form.getByLabel(/^Cantidad/).fill('2');
    await form.getByLabel(/^Método de pago/).selectOption('PPD');
    await form.getByLabel(/^Forma de pago/).selectOption('99');
  });
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(/\/documents\/inv_/);
  const invoicePath = new URL(page.url()).pathname;
  await waitForStatus(page, ['Timbrado'], 'the PPD invoice stamped');

  // A payment above the balance is refused on its field; $300.00 is recorded and its complement stamped.
  const paymentForm = page.getByRole('form', { name: 'Registrar pago (complemento)' });
  await expect(paymentForm.getByLabel(/^Monto/).inputValue()).resolves.toBe('800.00');
  await paymentForm.getByLabel(/^Monto/).fill('900');
  await paymentForm.getByRole('button', { name: 'Registrar pago (complemento)' }).click();
  await expect(paymentForm.locator('[data-path="/monto"]').textContent()).resolves.toMatch(/800/);
  await paymentForm.getByLabel(/^Monto/).fill('300');
  await paymentForm.getByRole('button', { name: 'Registrar pago (complemento)' }).click();
  await paymentForm.getByRole('status').getByRole('link').click();
  await page.waitForURL(/\/documents\//);
  await waitForStatus(page, ['Timbrado'], 'the payment complement stamped');
  await expect(page.getByTestId('document-amount-paid').textContent()).resolves.toBe('$300.00 MXN');

  // Its credit note: the invoice's receiver and merchant, a saved product, totals per tax, drafted and stamped.
  await page.goto(url(invoicePath));
  await page.getByRole('link', { name: 'Nueva nota de crédito' }).click();
  await page.waitForURL(/\/issue\?invoice=inv_/);
  const creditForm = page.getByRole('form', { name: 'Nueva nota de crédito' });
  await creditForm
    .getByLabel(/^Producto/)
    .selectOption({ label: `Consultoría en sistemas (CONS-${tag}) · $400.00 MXN` });
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$400.00 MXN');
  await expect(page.getByTestId('tax-IVA-16 %').textContent()).resolves.toBe('$55.17 MXN');
  await checkPage(page, 'issue-credit-note');
  await creditForm.getByRole('button', { name: 'Guardar borrador' }).click();
  await page.waitForURL(/\/issue\/drafts\/inv_/);
  await page.getByRole('heading', { name: /Nota de crédito/ }).waitFor();
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(/\/documents\/inv_/);
  await waitForStatus(page, ['Timbrado'], 'the credit note stamped');
  await checkOnPhone(users.finance, [invoicePath, `/issue?invoice=${invoicePath.split('/').pop()}`]);
  expect(await auditActions(users.finance)).toEqual(expect.arrayContaining(['document.payment_create']));
}, 240_000);

it('an invoice in US dollars: moneda (MXN by default) and tipoCambio on the form, each problem under its field, stamped in USD', async () => {
  const page = await signedIn(users.finance);
  await page.goto(url('/issue'));
  const form = page.getByRole('form', { name: 'Nueva factura' });
  // MXN by default, and no exchange rate to ask for.
  await expect(form.getByLabel(/^Moneda/).inputValue()).resolves.toBe('MXN');
  await expect(form.getByLabel(/^Tipo de cambio/).count()).resolves.toBe(0);
  await form.getByLabel(/^Cliente/).selectOption({ label: 'URE180429TM6 · UNIVERSIDAD ROBOTICA ESPAÑOLA' });
  await form
    .getByLabel(/^Producto/)
    .selectOption({ label: `Consultoría en sistemas (CONS-${tag}) · $400.00 MXN` });
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$400.00 MXN');

  // Dollars: the rate is asked for, and its absence or a wrong one is named under it.
  await form.getByLabel(/^Moneda/).selectOption('USD');
  const rate = form.getByLabel(/^Tipo de cambio/);
  // (The totals are asked 300 ms after a change: each message is waited for.)
  await form.locator('[data-path="/tipoCambio"]', { hasText: 'CFDI40115' }).waitFor();
  await rate.fill('diecisiete');
  await form.locator('[data-path="/tipoCambio"]', { hasText: 'must be a number greater than 0' }).waitFor();
  await rate.fill('17.25');
  await page.getByTestId('total').filter({ hasText: / USD$/ }).waitFor();
  const total = await page.getByTestId('total').textContent();
  await checkPage(page, 'issue-usd');
  await form.getByRole('button', { name: 'Guardar borrador' }).click();
  await page.waitForURL(/\/issue\/drafts\/inv_/);
  await expect(page.getByTestId('total').textContent()).resolves.toBe(total);
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(/\/documents\/inv_/);
  await waitForStatus(page, ['Timbrado'], 'the USD invoice stamped');
  await expect(page.getByTestId('document-total').textContent()).resolves.toBe(total);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const invoice = (await stack.api.request('GET', `/v1/invoices/${id}`, { key: account.testKey })).body;
  expect(invoice).toMatchObject({ status: 'stamped', currency: 'USD', tipoCambio: 17.25 });
  const [{ stamped_xml: xml }] = (await stack.api.orm.em
    .fork()
    .execute('select stamped_xml from documents where id = ?', [id])) as [{ stamped_xml: string }];
  expect(xml).toMatch(/Moneda="USD"/);
  expect(xml).toMatch(/TipoCambio="17.25"/);
  await checkOnPhone(users.finance, ['/issue']);
}, 180_000);

it('a saved draft is edited in the issue form and saved again; the stamp is of the edited draft', async () => {
  const page = await signedIn(users.finance);
  await draftInvoice(page, '$400.00 MXN');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByTestId('edit-draft').click();
  await page.waitForURL(new RegExp(`/issue\\?draft=${id}$`));
  const form = page.getByRole('form', { name: 'Nueva factura' });
  // The form starts from the draft: its customer, product and quantity.
  await expect(form.getByLabel('Cantidad').inputValue()).resolves.toBe('1');
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$400.00 MXN');
  await checkPage(page);
  await form.getByLabel('Cantidad').fill('3');
  // The totals already show the draft's: wait for the services' answer to the change.
  await page.getByTestId('total').filter({ hasText: '$1,200.00 MXN' }).waitFor();
  await form.getByRole('button', { name: 'Guardar borrador' }).click();
  // Saved over the same draft, not a second one.
  await page.waitForURL(new RegExp(`/issue/drafts/${id}$`));
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$1,200.00 MXN');
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(new RegExp(`/documents/${id}$`));
  await waitForStatus(page, ['Timbrado'], 'the edited draft stamped');
  const [stamped] = await stack.api.orm.em
    .fork()
    .execute<{ total: string; stamped_xml: string }[]>(
      'select total, stamped_xml from documents where id = ?',
      [id],
    );
  expect(Number(stamped!.total)).toBe(1200);
  expect(stamped!.stamped_xml).toMatch(/Cantidad="3(\.0+)?"/);
  expect(await auditActions(users.finance)).toEqual(expect.arrayContaining(['document.draft_update']));
}, 120_000);

it("a finance user changes a merchant's series, e-mail copies, PDF look and logo", async () => {
  const page = await signedIn(users.finance);
  await page.goto(url('/merchants'));
  await page.getByRole('link', { name: 'EKU9003173C9' }).click();
  await page.waitForURL(/\/merchants\/mch_/);
  const settingsPath = new URL(page.url()).pathname;
  const form = page.getByRole('form', { name: 'Configuración del emisor' });
  // The services refuse an address and a series too long, each under its field.
  await form.getByLabel(/^Serie/).evaluate((input) => {
    (input as unknown as { maxLength: number }).maxLength = 100;
  });
  await form.getByLabel(/^Serie/).fill('SERIEMUYLARGA');
  await form.getByLabel(/^Copias/).fill('no-es-correo');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(form.locator('[data-path="/serie"]').textContent()).resolves.toMatch(/1 to 10/);
  await expect(form.locator('[data-path^="/emailCopyTo"]').count()).resolves.toBeGreaterThan(0);
  const serie = `S${tag.slice(-6).toUpperCase()}`;
  await form.getByLabel(/^Serie/).fill(serie);
  await form.getByLabel(/^Copias/).fill(`contabilidad-${tag}@example.mx`);
  await form.getByLabel(/^Enviar cada CFDI/).selectOption('true');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await form.getByRole('status').waitFor();
  const [merchant] = await stack.api.orm.em
    .fork()
    .execute<{ serie: string; auto_email: boolean; email_copy_to: string[] }[]>(
      'select serie, auto_email, email_copy_to from merchants where id = ?',
      [account.merchantId],
    );
  expect(merchant).toEqual({ serie, auto_email: true, email_copy_to: [`contabilidad-${tag}@example.mx`] });

  // The PDF look: a colour that is not #RRGGBB and a note of seven lines, each refused under its field.
  const lookForm = page.getByRole('form', { name: 'Aspecto de los PDF y del portal' });
  await lookForm.getByLabel(/^Color de marca/).fill('navy');
  await lookForm.getByLabel(/^Nota al pie/).fill('1\n2\n3\n4\n5\n6\n7');
  await lookForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(lookForm.locator('[data-path="/brandColor"]').textContent()).resolves.toMatch(/#RRGGBB/);
  await expect(lookForm.locator('[data-path="/pdfNote"]').textContent()).resolves.toMatch(/7 lines/);
  await expect(lookForm.getByLabel(/^Nota al pie/).getAttribute('aria-invalid')).resolves.toBe('true');
  // The picker fills the text field; the note is kept as typed, markup and all.
  await lookForm.getByLabel('Elegir el color de marca').fill('#0d47a1');
  await expect(lookForm.getByLabel(/^Color de marca/).inputValue()).resolves.toBe('#0d47a1');
  const note = `Pagos a BBVA <b>CLABE</b> 012180001234567891 & ]]>\n¡Gracias! ${tag}`;
  await lookForm.getByLabel(/^Nota al pie/).fill(note);
  await lookForm.getByRole('button', { name: 'Guardar' }).click();
  await lookForm.getByRole('status').waitFor();
  const [look] = await stack.api.orm.em
    .fork()
    .execute<{ brand_color: string; pdf_note: string }[]>(
      'select brand_color, pdf_note from merchants where id = ?',
      [account.merchantId],
    );
  expect(look).toEqual({ brand_color: '#0d47a1', pdf_note: note });
  await page.reload();
  await expect(lookForm.getByLabel(/^Color de marca/).inputValue()).resolves.toBe('#0d47a1');
  await expect(lookForm.getByLabel('Elegir el color de marca').inputValue()).resolves.toBe('#0d47a1');
  await expect(lookForm.getByLabel(/^Nota al pie/).inputValue()).resolves.toBe(note);

  // The logo: checked by the services, then shown on the page.
  const logoForm = page.getByRole('form', { name: 'Logotipo' });
  await logoForm.getByLabel(/^Logotipo/).setInputFiles({
    name: 'logo.txt',
    mimeType: 'image/png',
    buffer: Buffer.from('not an image'),
  });
  await logoForm.getByRole('button', { name: 'Subir logotipo' }).click();
  await expect(logoForm.locator('[data-path="/logo"]').textContent()).resolves.toMatch(/PNG, JPEG or WebP/);
  await logoForm
    .getByLabel(/^Logotipo/)
    .setInputFiles(path.resolve(__dirname, '../../api/test/fixtures/logo.png'));
  await logoForm.getByRole('button', { name: 'Subir logotipo' }).click();
  await page.getByRole('img', { name: 'Logotipo' }).waitFor();
  const logo = await page.request.get(url(`${settingsPath}/logo`));
  expect({ status: logo.status(), type: logo.headers()['content-type'] }).toEqual({
    status: 200,
    type: 'image/png',
  });
  await checkPage(page, 'merchant-settings');
  await checkOnPhone(users.finance, [settingsPath]);
  expect(await auditActions(users.finance)).toEqual(
    expect.arrayContaining(['merchant.update', 'merchant.logo']),
  );
  // Another account's finance user finds neither the page nor the logo.
  const other = await signedIn(users.other);
  expect((await other.goto(url(settingsPath)))?.status()).toBe(404);
  expect((await other.request.get(url(`${settingsPath}/logo`))).status()).toBe(404);
}, 120_000);

it("the next folio of a merchant's series is set from its settings, only forward, and the next stamp takes it", async () => {
  const page = await signedIn(users.finance);
  await page.goto(url(`/merchants/${account.merchantId}`));
  const form = page.getByRole('form', { name: 'Folios' });
  const next = 4000 + Math.floor(Math.random() * 1000);
  await form.getByLabel(/^Siguiente folio/).fill(String(next));
  await form.getByRole('button', { name: 'Cambiar folio' }).click();
  await form.getByRole('status').waitFor();
  await expect(page.getByTestId('folio-series').textContent()).resolves.toContain(`Siguiente folio ${next}`);
  await checkPage(page);
  // Backwards would give a folio twice: refused under the field, nothing changed.
  await form.getByLabel(/^Siguiente folio/).fill('1');
  await form.getByRole('button', { name: 'Cambiar folio' }).click();
  await expect(form.locator('[data-path="/nextFolio"]').textContent()).resolves.toMatch(/must be above/);
  await draftInvoice(page, '$400.00 MXN');
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Timbrar' }).click();
  await page.waitForURL(new RegExp(`/documents/${id}$`));
  await waitForStatus(page, ['Timbrado'], 'the invoice stamped');
  const [row] = await stack.api.orm.em
    .fork()
    .execute<{ folio: string }[]>('select folio from documents where id = ?', [id]);
  expect(Number(row!.folio)).toBe(next);
  expect(await auditActions(users.finance)).toEqual(expect.arrayContaining(['merchant.next_folio']));
}, 120_000);

it('an invoice is substituted: a replacement relating it with 04, then the original cancelled with motive 01', async () => {
  const page = await signedIn(users.finance);
  const stampedInvoice = async () => {
    await page.getByRole('button', { name: 'Timbrar' }).click();
    await page.waitForURL(/\/documents\/inv_/);
    await waitForStatus(page, ['Timbrado'], 'the invoice stamped');
    return {
      id: new URL(page.url()).pathname.split('/').pop()!,
      uuid: (await page.getByTestId('document-uuid').textContent())!,
    };
  };
  await draftInvoice(page, '$400.00 MXN');
  const original = await stampedInvoice();

  await page.getByRole('button', { name: 'Sustituir (nueva factura, relación 04)' }).click();
  await page.waitForURL(/\/issue\/drafts\/inv_/);
  await expect(page.getByTestId('total').textContent()).resolves.toBe('$400.00 MXN');
  const replacement = await stampedInvoice();
  const cancelReplaced = page.getByRole('form', { name: 'Cancelar la factura sustituida (motivo 01)' });
  await checkPage(page, 'substitution');
  await cancelReplaced.getByRole('button', { name: 'Cancelar la factura sustituida (motivo 01)' }).click();
  await cancelReplaced.getByRole('status').waitFor();

  const rows = await stack.api.orm.em
    .fork()
    .execute<
      { id: string; input: { relatedDocuments?: unknown }; cancellation: Record<string, unknown> | null }[]
    >('select id, input, cancellation from documents where id in (?, ?) order by id', [
      original.id,
      replacement.id,
    ]);
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  expect(byId[replacement.id]!.input.relatedDocuments).toEqual([
    { tipoRelacion: '04', uuids: [original.uuid] },
  ]);
  expect(byId[original.id]!.cancellation).toMatchObject({ motivo: '01', folioSustitucion: replacement.uuid });
}, 180_000);
