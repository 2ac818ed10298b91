import { randomBytes } from 'node:crypto';
import { createCfdiClient, type CfdiClient } from '@cfdi/sdk';
import { EKU, logoFixture, satUpload } from './merchant-fixtures';
import { idempotencyKey, invoiceBody, startStack, type StackHarness } from './stack';

// The published contract proven against the server: one flow per resource group, all through the generated client.
let stack: StackHarness;
let cfdi: CfdiClient;
let merchantId: string;
beforeAll(async () => {
  stack = await startStack();
  const account = await stack.api.newAccount();
  cfdi = createCfdiClient({ baseUrl: stack.api.url, apiKey: account.testKey });
}, 120_000);
afterAll(async () => stack?.close());

const header = () => ({ header: { 'Idempotency-Key': idempotencyKey() } });

it('meta and catalogs', async () => {
  expect((await cfdi.GET('/health')).data).toEqual({ status: 'ok' });
  const formas = await cfdi.GET('/v1/catalogs/formas-pago');
  expect(formas.data?.data).toContainEqual({ clave: '03', nombre: 'Transferencia electrónica de fondos' });
  const products = await cfdi.GET('/v1/catalogs/products', { params: { query: { keyword: 'computadora', limit: 5 } } });
  expect(products.data?.data.length).toBeGreaterThan(0);
}, 60_000);

it('merchants: create, CSD, logo, update, list, retrieve', async () => {
  const created = await cfdi.POST('/v1/merchants', { body: { ...EKU, serie: `S${randomBytes(3).toString('hex').toUpperCase()}` } });
  expect(created.response.status).toBe(201);
  merchantId = created.data!.id;
  const csd = await cfdi.POST('/v1/merchants/{id}/csd', { params: { path: { id: merchantId } }, body: satUpload('EKU9003173C9-csd') });
  expect(csd.response.status).toBe(201);
  expect(csd.data).toMatchObject({ object: 'csd', rfc: 'EKU9003173C9' });
  const logo = await cfdi.PUT('/v1/merchants/{id}/logo', { params: { path: { id: merchantId } }, body: { logo: logoFixture('logo.png').toString('base64') } });
  expect(logo.data?.logoUrl).toMatch(/^http/);
  const updated = await cfdi.PATCH('/v1/merchants/{id}', { params: { path: { id: merchantId } }, body: { legalName: 'ESCUELA KEMPER URGATE' } });
  expect(updated.data?.legalName).toBe('ESCUELA KEMPER URGATE');
  expect((await cfdi.GET('/v1/merchants')).data?.data.map((m) => m.id)).toContain(merchantId);
  const missing = await cfdi.GET('/v1/merchants/{id}', { params: { path: { id: 'mch_missing' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error).toMatchObject({ code: 'not_found' });
}, 60_000);

it('invoices, files, credit notes, payments, cancellations and billing', async () => {
  const invoice = await cfdi.POST('/v1/invoices', { params: header(), body: invoiceBody(merchantId) as never });
  expect(invoice.response.status).toBe(201);
  const stamped = invoice.data as { id: string; uuid: string; status: string; files: { status: string; xmlUrl: string } };
  expect(stamped).toMatchObject({ status: 'stamped', uuid: expect.stringMatching(/^[0-9A-F-]{36}$/), files: { status: 'ready' } });
  expect((await cfdi.GET('/v1/invoices/{id}', { params: { path: { id: stamped.id } } })).data).toMatchObject({ id: stamped.id, status: 'stamped' });
  expect((await cfdi.GET('/v1/invoices', { params: { query: { merchantId } } })).data?.data.map((i) => i.id)).toContain(stamped.id);
  // A signed URL names the deployment's public address; the same path and query through the client's base URL.
  const signed = new URL(stamped.files.xmlUrl);
  const xml = await cfdi.GET('/files/{key}', {
    params: { path: { key: decodeURIComponent(signed.pathname.replace(/^\/files\//, '')) }, query: Object.fromEntries(signed.searchParams) },
    parseAs: 'text',
  });
  expect(xml.response.status).toBe(200);
  expect(xml.data).toContain(`UUID="${stamped.uuid}"`);

  const note = await cfdi.POST('/v1/credit_notes', {
    params: header(),
    body: { merchantId, relatedInvoiceId: stamped.id, formaPago: '03', items: [{ productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 100 }] },
  });
  expect(note.response.status).toBe(201);
  expect(note.data).toMatchObject({ kind: 'credit_note', relatedInvoiceId: stamped.id, status: 'stamped' });

  const ppd = await cfdi.POST('/v1/invoices', {
    params: header(),
    body: invoiceBody(merchantId, { metodoPago: 'PPD', formaPago: '99', items: [{ productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 1160 }] }) as never,
  });
  const ppdId = (ppd.data as { id: string }).id;
  const payment = await cfdi.POST('/v1/invoices/{id}/payments', { params: { ...header(), path: { id: ppdId } }, body: { monto: 400, formaPago: '03' } });
  expect(payment.response.status).toBe(201);
  expect(payment.data).toMatchObject({ object: 'payment', status: 'stamped', saldoInsoluto: 760 });
  expect((await cfdi.GET('/v1/payments', { params: { query: { invoiceId: ppdId } } })).data?.data).toHaveLength(1);
  const paymentId = (payment.data as { id: string }).id;
  expect((await cfdi.GET('/v1/payments/{id}', { params: { path: { id: paymentId } } })).data).toMatchObject({ id: paymentId });
  const cancelled = await cfdi.POST('/v1/payments/{id}/cancel', { params: { ...header(), path: { id: paymentId } }, body: { motivo: '02' } });
  expect(cancelled.response.status).toBe(202);

  const balance = await cfdi.GET('/v1/balance');
  // Five timbres: two invoices, the credit note, the payment and its cancellation, at 100 centavos each.
  expect(balance.data).toMatchObject({ object: 'balance', balanceCentavos: 100_000 - 500 });
  const consumed = await cfdi.GET('/v1/billing/transactions', { params: { query: { type: 'consume', limit: 100 } } });
  expect(consumed.data?.data).toHaveLength(5);
  const missingKey = await cfdi.POST('/v1/invoices', { params: { header: { 'Idempotency-Key': '' } }, body: invoiceBody(merchantId) as never });
  expect(missingKey.error).toMatchObject({ code: 'validation_error', errors: expect.arrayContaining([expect.objectContaining({ path: '/headers/idempotency-key' })]) });
}, 180_000);
