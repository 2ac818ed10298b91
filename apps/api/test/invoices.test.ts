import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { parseTfd, verifySeal } from '@cfdi/cfdi';
import { getBalanceCentavos } from '@cfdi/services';
import { generateCertificate, taxpayerSubject, TEST_CA_ISSUER } from '@cfdi/pac-sandbox';
import { waitFor } from '@cfdi/testkit';
import { runCli } from './cli';
import { logoFixture, PINNED_NOW } from './merchant-fixtures';
import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

/** The SAT's own schemas, through xmllint (CFDI + TFD + complements). */
function assertValidAgainstSatXsd(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-')), 'doc.xml');
  fs.writeFileSync(file, xml);
  execFileSync(
    'xmllint',
    ['--noout', '--schema', path.join(defaultSatDir(), 'xml', 'cfdi40-bundle.xsd'), file],
    { stdio: 'pipe' },
  );
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
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId, { folio: 'F-100' }),
    });
    expect(res.status).toBe(201);
    const invoice = res.body;
    expect(invoice).toMatchObject({
      object: 'invoice',
      livemode: false,
      status: 'stamped',
      kind: 'nominal',
      serie: account.serie,
      folio: 1,
      folioText: 'F-100',
      metodoPago: 'PUE',
      formaPago: '03',
      usoCfdi: 'G03',
      currency: 'MXN',
      receiver: RECEIVER,
      merchantId: account.merchantId,
      saldoPendiente: null,
      needsReconciliation: false,
      cancellation: null,
    });
    expect(invoice.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(invoice.total).toBe(26700);
    expect(invoice.stampedAt).toMatch(/Z$/);

    const row = (
      await stack.api.orm.em
        .fork()
        .execute('select stamped_xml, reservation_state from documents where id = ?', [invoice.id])
    )[0] as any;
    expect(row.reservation_state).toBe('confirmed');
    expect(parseTfd(row.stamped_xml)?.uuid).toBe(invoice.uuid);
    expect(verifySeal(row.stamped_xml).valid).toBe(true);
    assertValidAgainstSatXsd(row.stamped_xml);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000 - 100);

    // Small documents' files are ready at the answer (produced on first download): the 201 carries working signed URLs.
    expect(invoice.files).toMatchObject({
      status: 'ready',
      xmlUrl: expect.any(String),
      pdfUrl: expect.any(String),
      zipUrl: expect.any(String),
    });
    const xml = await download(invoice.files.xmlUrl);
    expect(xml).toContain(invoice.uuid);
    const pdf = await fetch(local(invoice.files.pdfUrl));
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
  }, 60_000);

  it('renders a document over FILES_INLINE_MAX_ITEMS concepts after the answer, on the files queue', async () => {
    const account = await stampingAccount(stack);
    const items = Array.from({ length: stack.api.config.filesInlineMaxItems + 1 }, (_, i) => ({
      productCode: '43211503',
      unitCode: 'H87',
      description: `Equipo ${i}`,
      quantity: 1,
      unitPrice: 100 + i,
    }));
    const res = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId, { items }),
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

  it("prints the merchant's current logo on the PDF, whether rendered on first download or on the files queue", async () => {
    const account = await stampingAccount(stack);
    const stamp = async (items?: unknown[]) => {
      const res = await stack.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId, items ? { items } : {}),
      });
      expect(res.status).toBe(201);
      const ready = await waitForFiles(account.testKey, res.body.id);
      const pdf = await fetch(local(ready.files.pdfUrl));
      return Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    };
    const hasImage = (pdf: string) => /\/Subtype \/Image/.test(pdf);
    const large = Array.from({ length: stack.api.config.filesInlineMaxItems + 1 }, (_, i) => ({
      productCode: '43211503',
      unitCode: 'H87',
      description: `Equipo ${i}`,
      quantity: 1,
      unitPrice: 100 + i,
    }));

    expect(hasImage(await stamp())).toBe(false);
    const logo = await stack.api.request('PUT', `/v1/merchants/${account.merchantId}/logo`, {
      key: account.testKey,
      body: { logo: logoFixture('logo.png').toString('base64') },
    });
    expect(logo.status).toBe(200);
    expect(hasImage(await stamp())).toBe(true);
    expect(hasImage(await stamp(large))).toBe(true);
    // pdfkit draws PNG and JPEG only: a WebP logo is printed too (converted for the PDF, served back as uploaded).
    const webp = await stack.api.request('PUT', `/v1/merchants/${account.merchantId}/logo`, {
      key: account.testKey,
      body: { logo: logoFixture('logo.webp').toString('base64') },
    });
    expect(webp.status).toBe(200);
    expect(hasImage(await stamp())).toBe(true);
    expect(hasImage(await stamp(large))).toBe(true);
    expect(
      (
        await stack.api.request('DELETE', `/v1/merchants/${account.merchantId}/logo`, {
          key: account.testKey,
        })
      ).status,
    ).toBeLessThan(300);
    expect(hasImage(await stamp())).toBe(false);
  }, 90_000);

  it("seals with the merchant's current CSD: after a replacement the next invoice carries the new certificate", async () => {
    const account = await stampingAccount(stack);
    const stampedXml = async () => {
      const res = await stack.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId),
      });
      expect(res.status).toBe(201);
      return download(res.body.files.xmlUrl);
    };
    const noCertificado = (xml: string) => /NoCertificado="(\d{20})"/.exec(xml)?.[1];
    expect(noCertificado(await stampedXml())).toBe('30001000000500003416');

    // A renewed CSD of the same taxpayer (generated: the SAT's test files have one per RFC).
    const { certificateDer, privateKey } = generateCertificate({
      noCertificado: `3000100000050000${String(randomInt(0, 1e4)).padStart(4, '0')}`,
      subject: taxpayerSubject('EKU9003173C9', 'ESCUELA KEMPER URGATE', 'Sucursal 1'),
      issuer: TEST_CA_ISSUER,
      notBefore: new Date(PINNED_NOW.getTime() - 86_400_000),
      notAfter: new Date(PINNED_NOW.getTime() + 30 * 86_400_000),
      profile: 'csd',
    });
    const renewed = await stack.api.request('PUT', `/v1/merchants/${account.merchantId}/csd`, {
      key: account.testKey,
      body: {
        cer: certificateDer.toString('base64'),
        password: 'renewed-pass',
        key: privateKey
          .export({ format: 'der', type: 'pkcs8', cipher: 'des-ede3-cbc', passphrase: 'renewed-pass' })
          .toString('base64'),
      },
    });
    expect(renewed.status).toBe(200);

    const xml = await stampedXml();
    expect(noCertificado(xml)).toBe(renewed.body.serialNumber);
    expect(verifySeal(xml).valid).toBe(true);
  }, 60_000);
});

describe('files that failed for good', () => {
  it('`cfdi files regenerate` renders them again once storage works: failed → ready, the PDF served', async () => {
    const account = await stampingAccount(stack);
    const { dir } = stack.api.config.storage as { dir: string };
    // Storage refuses this account's files: a plain file where its folder would go.
    const blocker = path.join(dir, account.accountId);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(blocker, 'not a folder');
    try {
      // A document over FILES_INLINE_MAX_ITEMS: its files are rendered on the files queue, which gives up after its retries.
      const items = Array.from({ length: stack.api.config.filesInlineMaxItems + 1 }, (_, i) => ({
        productCode: '43211503',
        unitCode: 'H87',
        description: `Equipo ${i}`,
        quantity: 1,
        unitPrice: 100 + i,
      }));
      const res = await stack.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId, { items }),
      });
      expect(res.status).toBe(201);
      await waitFor(
        async () =>
          (await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey })).body.files
            .status === 'failed'
            ? true
            : undefined,
        { what: 'the files failed after every retry', timeoutMs: 60_000 },
      );
      const listed = JSON.parse((await runCli(stack.api.config, ['files', 'failed', '--json'])).stdout) as {
        id: string;
      }[];
      expect(listed.map((d) => d.id)).toContain(res.body.id);

      const stillBlocked = await runCli(stack.api.config, ['files', 'regenerate', res.body.id]);
      expect({ code: stillBlocked.code, stderr: stillBlocked.stderr }).toEqual({
        code: 1,
        stderr: expect.stringContaining(`${res.body.id}: files still failed`),
      });

      fs.rmSync(blocker);
      const regenerated = await runCli(stack.api.config, ['files', 'regenerate', res.body.id]);
      expect({ code: regenerated.code, stdout: regenerated.stdout }).toEqual({
        code: 0,
        stdout: `${res.body.id}: files ready\n`,
      });
      const ready = (await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey }))
        .body;
      expect(ready.files.status).toBe('ready');
      const pdf = await fetch(local(ready.files.pdfUrl));
      expect({ status: pdf.status, type: pdf.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'application/pdf',
      });
    } finally {
      if (fs.statSync(blocker, { throwIfNoEntry: false })?.isFile()) fs.rmSync(blocker);
    }
  }, 150_000);
});

async function waitForFiles(key: string, id: string): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await stack.api.request('GET', `/v1/invoices/${id}`, { key });
    if (res.body.files.status === 'ready' || Date.now() > deadline) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
