import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { EKU, newMerchant } from './merchant-fixtures';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

// A merchant's PDF look (brand colour and note, beside the logo) in its API fields and in the PDFs of its documents.
let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const dir = mkdtempSync(path.join(tmpdir(), 'pdf-look-'));
const NOTE = 'BBVA <CLABE> 012180001234567891 & ]]>\n¡Gracias por su compra! ${total}';

/** The PDF's words as pdftotext reads them, and its inflated content streams (where colour operators are). */
function readPdf(bytes: Buffer, name: string): { text: string; streams: string } {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  const streams: string[] = [];
  for (const m of bytes.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      streams.push(inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1'));
    } catch {
      // not deflated (an image)
    }
  }
  return {
    text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
    streams: streams.join('\n'),
  };
}
/** How pdfkit writes a #rrggbb fill: each channel / 255. */
const fillOf = (hex: string) =>
  `${[1, 3, 5].map((i) => String(parseInt(hex.slice(i, i + 2), 16) / 255)).join(' ')} scn`;

async function pdfOf(id: string, key: string, name: string) {
  // A large document's files are rendered by the worker after the 201: poll until they are ready.
  let doc = (await stack.api.request('GET', `/v1/invoices/${id}`, { key })).body;
  for (const deadline = Date.now() + 60_000; doc.files.status !== 'ready' && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    doc = (await stack.api.request('GET', `/v1/invoices/${id}`, { key })).body;
  }
  expect(doc.files.status).toBe('ready');
  const { pathname, search } = new URL(doc.files.pdfUrl);
  const res = await fetch(stack.api.url + pathname + search);
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { bytes, ...readPdf(bytes, name) };
}

async function stamp(account: { testKey: string; merchantId: string }, items?: unknown[]) {
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId, items ? { items } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('merchant PDF look', () => {
  it('brandColor and pdfNote: stored normalised, cleared by null or a blank note, bad values 400 under their paths', async () => {
    const { testKey } = await stack.api.newAccount();
    const created = await newMerchant(stack.api, testKey, {
      ...EKU,
      brandColor: '#0D47A1',
      pdfNote: `  ${NOTE}\r\n`,
    });
    expect(created).toMatchObject({ brandColor: '#0d47a1', pdfNote: NOTE });
    const plain = await newMerchant(stack.api, testKey);
    expect(plain).toMatchObject({ brandColor: null, pdfNote: null });

    const bad = await stack.api.request('PATCH', `/v1/merchants/${created.id}`, {
      key: testKey,
      body: { brandColor: 'navy', pdfNote: 'x'.repeat(501) },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/brandColor', '/pdfNote']);
    for (const [pdfNote, message] of [
      ['1\n2\n3\n4\n5\n6\n7', 'has 7 lines; the limit is 6'],
      // The API's own guard on every text field answers first, under the same path.
      ['ring \u0007 the bell', expect.stringContaining('must not contain control characters')],
    ] as const) {
      const res = await stack.api.request('PATCH', `/v1/merchants/${created.id}`, {
        key: testKey,
        body: { pdfNote },
      });
      expect({ status: res.status, errors: res.body.errors }).toEqual({
        status: 400,
        errors: [{ path: '/pdfNote', message }],
      });
    }
    const creating = await stack.api.request('POST', '/v1/merchants', {
      key: testKey,
      body: { ...EKU, brandColor: '#12345' },
    });
    expect({ status: creating.status, path: creating.body.errors?.[0]?.path }).toEqual({
      status: 400,
      path: '/brandColor',
    });
    // Nothing was half-applied.
    expect(
      (await stack.api.request('GET', `/v1/merchants/${created.id}`, { key: testKey })).body,
    ).toMatchObject({
      brandColor: '#0d47a1',
      pdfNote: NOTE,
    });

    const cleared = await stack.api.request('PATCH', `/v1/merchants/${created.id}`, {
      key: testKey,
      body: { brandColor: null, pdfNote: ' \n ' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ brandColor: null, pdfNote: null });
  });

  it('a stamp prints the look of its first render; a PATCH shows on later renders while a stored PDF stays as it was', async () => {
    const account = await stampingAccount(stack, { ...EKU, brandColor: '#0d47a1', pdfNote: NOTE });
    const first = await stamp(account);
    const before = await stamp(account); // stamped before the PATCH, first downloaded after it
    const firstPdf = await pdfOf(first, account.testKey, 'first');
    expect(firstPdf.text).toContain('BBVA <CLABE> 012180001234567891 & ]]>');
    expect(firstPdf.text).toContain('¡Gracias por su compra! ${total}');
    expect(firstPdf.streams).toContain(fillOf('#0d47a1'));

    const patched = await stack.api.request('PATCH', `/v1/merchants/${account.merchantId}`, {
      key: account.testKey,
      body: { brandColor: '#b71c1c', pdfNote: 'Nueva nota: pagos a Banorte' },
    });
    expect(patched.status).toBe(200);

    // Stored at its first download: served as it was rendered.
    const firstAgain = await pdfOf(first, account.testKey, 'first-again');
    expect(firstAgain.bytes.equals(firstPdf.bytes)).toBe(true);

    // Rendered after the PATCH: the new look, whether stamped after it or only first downloaded after it.
    for (const [id, name] of [
      [await stamp(account), 'after'],
      [before, 'before'],
    ] as const) {
      const pdf = await pdfOf(id, account.testKey, name);
      expect(pdf.text).toContain('Nueva nota: pagos a Banorte');
      expect(pdf.text).not.toContain('Gracias');
      expect(pdf.streams).toContain(fillOf('#b71c1c'));
      expect(pdf.streams).not.toContain(fillOf('#0d47a1'));
    }

    // A large document's files are rendered by the worker at the stamp (not on download): the same look.
    const items = Array.from({ length: 51 }, (_, i) => ({
      productCode: '43211503',
      unitCode: 'H87',
      description: `Artículo ${i + 1}`,
      quantity: 1,
      unitPrice: 100,
    }));
    const large = await pdfOf(await stamp(account, items), account.testKey, 'large');
    expect(large.text).toContain('Nueva nota: pagos a Banorte');
    expect(large.streams).toContain(fillOf('#b71c1c'));
  }, 120_000);
});
