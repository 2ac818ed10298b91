import { randomBytes } from 'node:crypto';
import { Cfdi, CfdiError, type Body } from '@cfdi/sdk';
import { EKU, logoFixture, satUpload } from './merchant-fixtures';
import { invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

// The published contract proven against the server: one flow per resource group, all through the SDK's resources.
let stack: StackHarness;
let cfdi: Cfdi;
let merchantId: string;
beforeAll(async () => {
  stack = await startStack();
  const account = await stack.api.newAccount();
  cfdi = new Cfdi({ baseUrl: stack.api.url, apiKey: account.testKey });
}, 120_000);
afterAll(async () => stack?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a CfdiError');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(CfdiError);
      return error as CfdiError;
    },
  );

it('catalogs', async () => {
  const formas = await cfdi.catalogs.listFormasPago();
  expect(formas.data).toContainEqual({ clave: '03', nombre: 'Transferencia electrónica de fondos' });
  const products = await cfdi.catalogs.listProducts({ keyword: 'computadora', limit: 5 });
  expect(products.data.length).toBeGreaterThan(0);
}, 60_000);

it('merchants: create, CSD, logo, update, list, retrieve; a problem is a CfdiError', async () => {
  const created = await cfdi.merchants.create({
    ...EKU,
    serie: `S${randomBytes(3).toString('hex').toUpperCase()}`,
  } as Body<'createMerchant'>);
  merchantId = created.id;
  const csd = await cfdi.merchants.createCsd(merchantId, satUpload('EKU9003173C9-csd'));
  expect(csd).toMatchObject({ object: 'csd', rfc: 'EKU9003173C9' });
  const logo = await cfdi.merchants.updateLogo(merchantId, {
    logo: logoFixture('logo.png').toString('base64'),
  });
  expect(logo.logoUrl).toMatch(/^http/);
  const updated = await cfdi.merchants.update(merchantId, { legalName: 'ESCUELA KEMPER URGATE' });
  expect(updated.legalName).toBe('ESCUELA KEMPER URGATE');
  expect((await cfdi.merchants.list()).data.map((m) => m.id)).toContain(merchantId);
  const missing = await failure(cfdi.merchants.retrieve('mch_missing'));
  expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  expect(missing.type).toMatch(/\/docs\/errors\/not_found$/);
  const invalid = await failure(cfdi.merchants.create({ rfc: 'nope' } as never));
  expect(invalid).toMatchObject({ status: 400, code: 'validation_error' });
  expect(invalid.errors.map((e) => e.path)).toContain('/legalName');
}, 60_000);

it('invoices, files, credit notes, payments, cancellations and billing', async () => {
  const body = invoiceBody(merchantId) as Body<'createInvoice'>;
  const stamped = (await cfdi.invoices.create(body, {
    idempotencyKey: `sdk-${randomBytes(6).toString('hex')}`,
  })) as {
    id: string;
    uuid: string;
    status: string;
    files: { status: string; xmlUrl: string };
  };
  expect(stamped).toMatchObject({
    status: 'stamped',
    uuid: expect.stringMatching(/^[0-9A-F-]{36}$/),
    files: { status: 'ready' },
  });
  expect(await cfdi.invoices.retrieve(stamped.id)).toMatchObject({ id: stamped.id, status: 'stamped' });
  expect((await cfdi.invoices.list({ merchantId })).data.map((i) => i.id)).toContain(stamped.id);
  // A signed URL names the deployment's public address; the same path and query through the client's base URL.
  const signed = new URL(stamped.files.xmlUrl);
  const xml = new TextDecoder().decode(
    await cfdi.download(`${stack.api.url}${signed.pathname}${signed.search}`),
  );
  expect(xml).toContain(`UUID="${stamped.uuid}"`);

  const note = await cfdi.creditNotes.create({
    merchantId,
    relatedInvoiceId: stamped.id,
    formaPago: '03',
    items: [
      { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 100 },
    ],
  } as Body<'createCreditNote'>);
  expect(note).toMatchObject({ kind: 'credit_note', relatedInvoiceId: stamped.id, status: 'stamped' });

  const ppd = (await cfdi.invoices.create(
    invoiceBody(merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 1160 },
      ],
    }) as Body<'createInvoice'>,
  )) as { id: string };
  const payment = (await cfdi.payments.create(ppd.id, { monto: 400, formaPago: '03' })) as { id: string };
  expect(payment).toMatchObject({ object: 'payment', status: 'stamped', saldoInsoluto: 760 });
  expect((await cfdi.payments.list({ invoiceId: ppd.id })).data).toHaveLength(1);
  expect(await cfdi.payments.retrieve(payment.id)).toMatchObject({ id: payment.id });
  expect(await cfdi.payments.cancel(payment.id, { motivo: '02' })).toMatchObject({ id: payment.id });

  const balance = await cfdi.billing.retrieveBalance();
  // Five timbres: two invoices, the credit note, the payment and its cancellation, at 100 centavos each.
  expect(balance).toMatchObject({ object: 'balance', balanceCentavos: 100_000 - 500 });
  // The async iterator walks every page (two items a page here) and stops at the last.
  const consumed = [];
  for await (const transaction of cfdi.billing.listTransactions({ type: 'consume', limit: 2 }))
    consumed.push(transaction.id);
  expect(new Set(consumed).size).toBe(5);
  const firstPage = await cfdi.billing.listTransactions({ type: 'consume', limit: 2 });
  expect(firstPage).toMatchObject({ object: 'list', has_more: true });
  expect(firstPage.data.map((t) => t.id)).toEqual(consumed.slice(0, 2));
}, 180_000);

it('customers and products: create, update, search, an invoice from their ids, delete', async () => {
  const customer = await cfdi.customers.create({
    rfc: 'URE180429TM6',
    legalName: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    regimenFiscal: '601',
    zip: '86991',
    usoCfdi: 'G03',
  });
  const product = await cfdi.products.create({
    description: 'Laptop',
    productCode: '43211503',
    unitCode: 'H87',
    price: 1160,
    sku: 'SDK-1',
  } as Body<'createProduct'>);
  const updated = await cfdi.customers.update(customer.id, {
    emails: ['pagos@robotica.example.mx'],
    locale: 'en',
  });
  expect(updated).toMatchObject({ emails: ['pagos@robotica.example.mx'], locale: 'en' });
  const found = await cfdi.products.listSaved({ sku: 'SDK-1' });
  expect(found.data.map((p) => p.id)).toEqual([product.id]);

  const invoice = await cfdi.invoices.create({
    merchantId,
    formaPago: '03',
    customerId: customer.id,
    items: [{ productId: product.id, quantity: 2 }],
  } as Body<'createInvoice'>);
  expect(invoice).toMatchObject({ customerId: customer.id, total: 2320, receiver: { rfc: 'URE180429TM6' } });

  expect(await cfdi.products.delete(product.id)).toEqual({
    id: product.id,
    object: 'product',
    deleted: true,
  });
  // The SKU is free again once its product is deleted.
  const again = await cfdi.products.create({
    description: 'Laptop',
    productCode: '43211503',
    unitCode: 'H87',
    price: 1160,
    sku: 'SDK-1',
  } as Body<'createProduct'>);
  expect(again.id).not.toBe(product.id);
}, 60_000);

it('a stamp whose answer is lost is retried under the same Idempotency-Key: one invoice, one timbre', async () => {
  const account = await stampingAccount(stack);
  const keys: string[] = [];
  let loseNext = true;
  const flaky = new Cfdi({
    baseUrl: stack.api.url,
    apiKey: account.testKey,
    fetch: async (input, init) => {
      const key = new Headers(init?.headers).get('idempotency-key');
      if (key) keys.push(key);
      const response = await fetch(input, init);
      // The first answer is lost on the way back, after the server stamped: the client must send it again.
      if (loseNext && key) {
        loseNext = false;
        throw new TypeError('fetch failed: socket hang up');
      }
      return response;
    },
  });
  const invoice = (await flaky.invoices.create(invoiceBody(account.merchantId) as Body<'createInvoice'>)) as {
    id: string;
    status: string;
  };
  expect(invoice.status).toBe('stamped');
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  expect((await flaky.invoices.list()).data.map((i) => i.id)).toEqual([invoice.id]);
  expect(await flaky.billing.retrieveBalance()).toMatchObject({ balanceCentavos: 100_000 - 100 });
}, 120_000);
