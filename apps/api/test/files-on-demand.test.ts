import { startApi, type ApiHarness } from './harness';
import { shiftedClock } from './stack';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import type { FilesRenderer } from '@cfdi/services';

// Small documents' PDF and ZIP are not rendered on the stamping path: the 201 already says `ready` with signed URLs,
// and the first download of the PDF or ZIP renders both and keeps them.
let stack: StackHarness;
let second: ApiHarness;
beforeAll(async () => {
  stack = await startStack();
  // Another API process of the same deployment (same database, storage and URL secret).
  second = await startApi(
    { PAC_SANDBOX_URL: stack.sandbox.url, TEMPORAL_TASK_QUEUE: stack.taskQueue },
    { now: shiftedClock() },
  );
}, 60_000);
afterAll(async () => {
  await second?.close();
  await stack?.close();
}, 60_000);

/** Signed URLs carry PUBLIC_BASE_URL; the test APIs listen on ephemeral ports. */
const at = (api: ApiHarness, url: string) => api.url + new URL(url).pathname + new URL(url).search;

async function stampedInvoice() {
  const account = await stampingAccount(stack);
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(res.status).toBe(201);
  expect(res.body.files).toMatchObject({
    status: 'ready',
    xmlUrl: expect.any(String),
    pdfUrl: expect.any(String),
    zipUrl: expect.any(String),
  });
  return { account, invoice: res.body };
}

/** Wraps both APIs' renderer: counts renders, fails while `failing` is set. */
function instrument(): { renders: () => number; failing: { on: boolean }; restore(): void } {
  let renders = 0;
  const failing = { on: false };
  const originals = [stack.api.deps.renderFiles, second.deps.renderFiles];
  for (const api of [stack.api, second]) {
    const original = api.deps.renderFiles;
    api.deps.renderFiles = (async (...args) => {
      renders++;
      if (failing.on) throw new Error('renderer broken for the test');
      return original(...args);
    }) satisfies FilesRenderer;
  }
  return {
    renders: () => renders,
    failing,
    restore: () => {
      [stack.api.deps.renderFiles, second.deps.renderFiles] = originals as [FilesRenderer, FilesRenderer];
    },
  };
}

describe('document files on first download', () => {
  it('renders once for concurrent first downloads across two API processes; every client gets the same bytes', async () => {
    const { invoice } = await stampedInvoice();
    const renderer = instrument();
    try {
      const requests = Array.from({ length: 12 }, (_, i) => {
        const api = i % 2 ? second : stack.api;
        return fetch(at(api, i % 3 ? invoice.files.pdfUrl : invoice.files.zipUrl)).then(async (r) => ({
          status: r.status,
          type: r.headers.get('content-type'),
          bytes: Buffer.from(await r.arrayBuffer()),
        }));
      });
      const answers = await Promise.all(requests);
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      const pdfs = answers.filter((a) => a.type === 'application/pdf');
      const zips = answers.filter((a) => a.type === 'application/zip');
      expect([pdfs.length, zips.length]).toEqual([8, 4]);
      expect(new Set(pdfs.map((a) => a.bytes.toString('base64'))).size).toBe(1);
      expect(new Set(zips.map((a) => a.bytes.toString('base64'))).size).toBe(1);
      expect(pdfs[0]!.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(renderer.renders()).toBe(1);

      // Kept: later downloads are served from storage.
      const again = await fetch(at(stack.api, invoice.files.pdfUrl));
      expect(Buffer.from(await again.arrayBuffer()).equals(pdfs[0]!.bytes)).toBe(true);
      expect(renderer.renders()).toBe(1);
    } finally {
      renderer.restore();
    }
  }, 60_000);

  it('a render that fails is no 5xx: the PDF is "not ready", the XML downloads, files say failed; the next download renders it', async () => {
    const { account, invoice } = await stampedInvoice();
    const renderer = instrument();
    try {
      renderer.failing.on = true;
      const pdf = await fetch(at(stack.api, invoice.files.pdfUrl));
      expect({
        status: pdf.status,
        retryAfter: pdf.headers.get('retry-after'),
        code: ((await pdf.json()) as { code: string }).code,
      }).toEqual({ status: 404, retryAfter: '30', code: 'not_found' });
      expect(renderer.renders()).toBe(2); // retried once before answering

      const xml = await fetch(at(stack.api, invoice.files.xmlUrl));
      expect(xml.status).toBe(200);
      expect(await xml.text()).toContain(invoice.uuid);

      const failed = (await stack.api.request('GET', `/v1/invoices/${invoice.id}`, { key: account.testKey }))
        .body;
      expect(failed.files.status).toBe('failed');
      expect(failed.files.xmlUrl).toEqual(expect.any(String));
      expect(failed.files.pdfUrl).toBeUndefined();

      renderer.failing.on = false;
      const retried = await fetch(at(stack.api, invoice.files.zipUrl));
      expect({ status: retried.status, type: retried.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'application/zip',
      });
      const ready = (await stack.api.request('GET', `/v1/invoices/${invoice.id}`, { key: account.testKey }))
        .body;
      expect(ready.files).toMatchObject({ status: 'ready', pdfUrl: expect.any(String) });
      expect((await fetch(at(stack.api, ready.files.pdfUrl))).status).toBe(200);
    } finally {
      renderer.restore();
    }
  }, 60_000);
});
