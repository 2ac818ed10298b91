import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { parseTfd, verifySeal } from '@cfdi/cfdi';
import { getBalanceCentavos } from '@cfdi/services';
import { idempotencyKey, invoiceBody, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

/** The SAT's own schemas, through xmllint (CFDI + TFD + complements). */
function assertValidAgainstSatXsd(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-')), 'doc.xml');
  fs.writeFileSync(file, xml);
  execFileSync('xmllint', ['--noout', '--schema', path.join(defaultSatDir(), 'xml', 'cfdi40-bundle.xsd'), file], { stdio: 'pipe' });
}

/** Signed URLs carry PUBLIC_BASE_URL; the test API listens on an ephemeral port. */
const local = (url: string) => stack.api.url + new URL(url).pathname + new URL(url).search;

async function download(url: string): Promise<string> {
  const response = await fetch(local(url));
  expect(response.status).toBe(200);
  return response.text();
}

describe('POST /v1/invoices', () => {
  it('stamps a PUE invoice: 201 with UUID, a TFD, SAT-valid XML, one consume, and its files already ready', async () => {
    const account = await stampingAccount(stack);
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey, headers: { 'idempotency-key': idempotencyKey() }, body: invoiceBody(account.merchantId, { folio: 'F-100' }),
    });
    expect(res.status).toBe(201);
    const invoice = res.body;
    expect(invoice).toMatchObject({
      object: 'invoice', livemode: false, status: 'stamped', kind: 'nominal', serie: account.serie, folio: 1, folioText: 'F-100',
      metodoPago: 'PUE', formaPago: '03', usoCfdi: 'G03', currency: 'MXN', receiver: RECEIVER, merchantId: account.merchantId,
      saldoPendiente: null, needsReconciliation: false, cancellation: null,
    });
    expect(invoice.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(invoice.total).toBe(26700);
    expect(invoice.stampedAt).toMatch(/Z$/);

    const row = (await stack.api.orm.em.fork().execute('select stamped_xml, reservation_state from documents where id = ?', [invoice.id]))[0] as any;
    expect(row.reservation_state).toBe('confirmed');
    expect(parseTfd(row.stamped_xml)?.uuid).toBe(invoice.uuid);
    expect(verifySeal(row.stamped_xml).valid).toBe(true);
    assertValidAgainstSatXsd(row.stamped_xml);
    expect(await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false })).toBe(100000 - 100);

    // Small documents render before the answer: the 201 itself carries working signed URLs.
    expect(invoice.files).toMatchObject({ status: 'ready', xmlUrl: expect.any(String), pdfUrl: expect.any(String), zipUrl: expect.any(String) });
    const xml = await download(invoice.files.xmlUrl);
    expect(xml).toContain(invoice.uuid);
    const pdf = await fetch(local(invoice.files.pdfUrl));
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
  }, 60_000);

  it('renders a document over FILES_INLINE_MAX_ITEMS concepts after the answer, on the files queue', async () => {
    const account = await stampingAccount(stack);
    const items = Array.from({ length: stack.api.config.filesInlineMaxItems + 1 }, (_, i) => (
      { productCode: '43211503', unitCode: 'H87', description: `Equipo ${i}`, quantity: 1, unitPrice: 100 + i }
    ));
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey, headers: { 'idempotency-key': idempotencyKey() }, body: invoiceBody(account.merchantId, { items }),
    });
    expect(res.status).toBe(201);
    expect(['pending', 'processing']).toContain(res.body.files.status);
    expect(res.body.files.pdfUrl).toBeUndefined();
    const ready = await waitForFiles(account.testKey, res.body.id);
    expect(ready.files.status).toBe('ready');
    const pdf = await fetch(local(ready.files.pdfUrl));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
  }, 60_000);
});

async function waitForFiles(key: string, id: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await stack.api.request('GET', `/v1/invoices/${id}`, { key });
    if (res.body.files.status === 'ready' || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
