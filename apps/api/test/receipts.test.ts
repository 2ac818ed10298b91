import { Cfdi } from '@cfdi/sdk';
import { normalizeReceiptKey, receiptExpiry } from '@cfdi/services';
import { callTool, connectMcp } from './mcp-client';
import { newMerchant, EKU } from './merchant-fixtures';
import { notFound } from './record-fixtures';
import { keyForAnotherMerchant } from './restricted-key';
import { idempotencyKey, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const request = (method: string, path: string, key: string, body?: unknown, ik?: string) =>
  stack.api.request(method, path, {
    key,
    ...(ik ? { headers: { 'idempotency-key': ik } } : {}),
    ...(body === undefined ? {} : { body }),
  });
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

const SALE = (merchantId: string, overrides: Record<string, unknown> = {}) => ({
  merchantId,
  formaPago: '01',
  branch: 'CENTRO',
  externalId: 'venta-1001',
  items: [
    {
      productCode: '50192100',
      unitCode: 'H87',
      description: 'Torta de milanesa',
      quantity: 2,
      unitPrice: 58,
    },
    {
      productCode: '50202301',
      unitCode: 'H87',
      description: 'Agua de horchata',
      quantity: 1,
      unitPrice: 23.2,
    },
  ],
  ...overrides,
});

async function created(key: string, body: unknown) {
  const res = await request('POST', '/v1/receipts', key, body, idempotencyKey());
  if (res.status !== 201) throw new Error(`receipt: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const balance = async (key: string) =>
  (await request('GET', '/v1/balance', key)).body.balanceCentavos as number;

describe('/v1/receipts', () => {
  it('creates a receipt without stamping, with a key, a portal URL and an expiry; reads, lists and cancels it', async () => {
    const account = await stampingAccount(stack);
    const before = await balance(account.testKey);
    const receipt = await created(account.testKey, SALE(account.merchantId));
    expect(receipt).toMatchObject({
      object: 'receipt',
      livemode: false,
      merchantId: account.merchantId,
      status: 'open',
      formaPago: '01',
      branch: 'CENTRO',
      externalId: 'venta-1001',
      pricesIncludeTax: true,
      subtotal: '120.000000',
      total: '139.20',
      invoiceId: null,
      cancelledAt: null,
    });
    expect(receipt.id).toMatch(/^rcpt_/);
    expect(receipt.key).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(receipt.selfInvoiceUrl).toBe(`${stack.api.config.api.portalUrl}/r/${receipt.key}`);
    expect(receipt.expiresAt).toBe(receiptExpiry(new Date(receipt.createdAt), 0).toISOString());
    // No CFDI, no timbre.
    expect(await balance(account.testKey)).toBe(before);
    const documents: unknown[] = await stack.api.orm.em
      .fork()
      .execute('select id from documents where merchant_id = ?', [account.merchantId]);
    expect(documents).toEqual([]);

    expect((await request('GET', `/v1/receipts/${receipt.id}`, account.testKey)).body).toEqual(receipt);
    const second = await created(account.testKey, SALE(account.merchantId, { externalId: 'venta-1002' }));
    expect(second.key).not.toBe(receipt.key);
    expect(ids(await request('GET', '/v1/receipts', account.testKey))).toEqual([second.id, receipt.id]);
    expect(ids(await request('GET', '/v1/receipts?externalId=venta-1001', account.testKey))).toEqual([
      receipt.id,
    ]);

    const cancelled = await request('POST', `/v1/receipts/${receipt.id}/cancel`, account.testKey);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: receipt.id, status: 'cancelled' });
    expect(cancelled.body.cancelledAt).toEqual(expect.any(String));
    const again = await request('POST', `/v1/receipts/${receipt.id}/cancel`, account.testKey);
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 409,
      code: 'receipt_not_open',
    });
    expect(again.body.detail).toContain('was cancelled');
    expect(ids(await request('GET', '/v1/receipts?status=open', account.testKey))).toEqual([second.id]);
    expect(ids(await request('GET', '/v1/receipts?status=cancelled', account.testKey))).toEqual([receipt.id]);
  }, 60_000);

  it('answers a retry with the same Idempotency-Key with the first receipt, and a different body with 422', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const body = SALE(account.merchantId);
    const [a, b] = [
      await request('POST', '/v1/receipts', account.testKey, body, ik),
      await request('POST', '/v1/receipts', account.testKey, body, ik),
    ];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get('idempotency-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(ids(await request('GET', '/v1/receipts', account.testKey))).toEqual([a.body.id]);
    const other = await request('POST', '/v1/receipts', account.testKey, { ...body, branch: 'NORTE' }, ik);
    expect({ status: other.status, code: other.body.code }).toEqual({
      status: 422,
      code: 'idempotency_key_reuse',
    });
    const missing = await request('POST', '/v1/receipts', account.testKey, body);
    expect({ status: missing.status, paths: paths(missing) }).toEqual({
      status: 400,
      paths: ['/headers/idempotency-key'],
    });
  }, 60_000);

  it('checks items and payment form like an invoice, each problem on its path', async () => {
    const account = await stampingAccount(stack);
    const refused = async (body: unknown) => {
      const res = await request('POST', '/v1/receipts', account.testKey, body, idempotencyKey());
      expect(res.status).toBe(400);
      return paths(res);
    };
    const sale = SALE(account.merchantId);
    expect(await refused({ ...sale, formaPago: '99' })).toEqual(['/formaPago']);
    expect(await refused({ ...sale, formaPago: '77' })).toEqual(['/formaPago']);
    expect(
      await refused({ ...sale, items: [{ ...sale.items[0], productCode: '00000000' }, sale.items[1]] }),
    ).toEqual(['/items/0/productCode']);
    expect(await refused({ ...sale, items: [sale.items[0], { ...sale.items[1], quantity: 0 }] })).toEqual([
      '/items/1/quantity',
    ]);
    expect(await refused({ ...sale, items: [] })).toEqual(['/items']);
    expect(await refused({ ...sale, surprise: true })).toEqual(['/surprise']);
    const noMerchant = await request(
      'POST',
      '/v1/receipts',
      account.testKey,
      SALE('mch_0000000000AAAAAAAAAAAAAAAA'),
      idempotencyKey(),
    );
    expect(noMerchant.status).toBe(404);
    expect(ids(await request('GET', '/v1/receipts', account.testKey))).toEqual([]);
    const badList = await request('GET', '/v1/receipts?status=paid', account.testKey);
    expect({ status: badList.status, paths: paths(badList) }).toEqual({ status: 400, paths: ['/status'] });
  }, 60_000);

  it("answers another account's, mode's or merchant's receipt as an unknown one", async () => {
    const account = await stampingAccount(stack);
    const receipt = await created(account.testKey, SALE(account.merchantId));
    const other = await stack.api.newAccount();
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const unknown = 'rcpt_0000000000AAAAAAAAAAAAAAAA';
    for (const [method, suffix] of [
      ['GET', ''],
      ['POST', '/cancel'],
    ] as const) {
      const expected = notFound(
        await request(method, `/v1/receipts/${unknown}${suffix}`, account.testKey),
        unknown,
      );
      expect(expected).toMatchObject({ status: 404, code: 'not_found' });
      for (const key of [other.testKey, account.liveKey, restricted])
        expect(
          notFound(await request(method, `/v1/receipts/${receipt.id}${suffix}`, key), receipt.id),
        ).toEqual(expected);
    }
    for (const key of [other.testKey, account.liveKey, restricted])
      expect(ids(await request('GET', '/v1/receipts', key))).toEqual([]);
    const foreign = await request(
      'POST',
      '/v1/receipts',
      restricted,
      SALE(account.merchantId),
      idempotencyKey(),
    );
    expect(foreign.status).toBe(403);
    const otherMerchant = await newMerchant(stack.api, other.testKey, { ...EKU, serie: 'RX' });
    const crossed = await request(
      'POST',
      '/v1/receipts',
      account.testKey,
      SALE(otherMerchant.id),
      idempotencyKey(),
    );
    expect(crossed.status).toBe(404);
    expect((await request('GET', `/v1/receipts/${receipt.id}`, account.testKey)).body.status).toBe('open');
  }, 60_000);
});

describe('the printed ticket', () => {
  it('prints the key, the portal URL and the sale in 42 columns, and an 80 mm PDF; a foreign receipt is 404', async () => {
    const account = await stampingAccount(stack);
    const receipt = await created(account.testKey, SALE(account.merchantId));
    const text = await stack.api.request('GET', `/v1/receipts/${receipt.id}/ticket.txt`, {
      key: account.testKey,
    });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (text.body as string).split('\n');
    expect(Math.max(...lines.filter((l) => !l.startsWith('http')).map((l) => l.length))).toBeLessThanOrEqual(
      42,
    );
    expect(lines).toContain(receipt.selfInvoiceUrl);
    expect(text.body).toContain(receipt.key.match(/.{4}/g).join('-'));
    expect(text.body).toMatch(/2 Torta de milanesa +\$116\.00/);
    expect(text.body).toMatch(/TOTAL +\$139\.20/);
    expect(text.body).toContain('CENTRO');

    const pdf = await fetch(`${stack.api.url}/v1/receipts/${receipt.id}/ticket.pdf`, {
      headers: { authorization: `Bearer ${account.testKey}` },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-')).toBe(true);
    expect(bytes).toMatch(/\/MediaBox \[0 0 226\.77/);

    const other = await stack.api.newAccount();
    for (const suffix of ['ticket.txt', 'ticket.pdf'])
      expect((await request('GET', `/v1/receipts/${receipt.id}/${suffix}`, other.testKey)).status).toBe(404);
  }, 60_000);
});

describe('receipts through MCP and the SDK', () => {
  it('create_receipt with an idempotency_key, get, list and cancel; the SDK reads the same receipt', async () => {
    const account = await stampingAccount(stack);
    const client = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
    try {
      const args = { ...SALE(account.merchantId), idempotency_key: idempotencyKey() };
      const made = await callTool(client, 'create_receipt', args);
      expect(made.data).toMatchObject({ object: 'receipt', status: 'open', total: '139.20' });
      expect(made.text).toContain(made.data.key);
      // The same key and arguments answer the same receipt: no second one.
      expect((await callTool(client, 'create_receipt', args)).data.id).toBe(made.data.id);
      expect((await callTool(client, 'get_receipt', { id: made.data.id })).data).toEqual(
        (await request('GET', `/v1/receipts/${made.data.id}`, account.testKey)).body,
      );
      const listed = await callTool(client, 'list_receipts', { status: 'open' });
      expect(listed.data.data.map((r: { id: string }) => r.id)).toEqual([made.data.id]);
      const bad = await callTool(client, 'create_receipt', {
        ...SALE(account.merchantId, { formaPago: '99' }),
        idempotency_key: idempotencyKey(),
      });
      expect(bad.problem.errors.map((e: { path: string }) => e.path)).toEqual(['/formaPago']);

      const cfdi = new Cfdi({ baseUrl: stack.api.url, apiKey: account.testKey });
      const viaSdk = await cfdi.receipts.create(SALE(account.merchantId) as never, {
        idempotencyKey: idempotencyKey(),
      });
      expect(await cfdi.receipts.retrieve(viaSdk.id)).toEqual(viaSdk);
      expect((await callTool(client, 'cancel_receipt', { id: made.data.id })).data.status).toBe('cancelled');
      expect((await cfdi.receipts.cancel(viaSdk.id)).status).toBe('cancelled');
      const twice = await callTool(client, 'cancel_receipt', { id: made.data.id });
      expect(twice.problem).toMatchObject({ status: 409, code: 'receipt_not_open' });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('receipt keys and expiry', () => {
  it('reads a key as a customer types it, and refuses what cannot be one', () => {
    expect(normalizeReceiptKey('abcd-efgh-jkmn-pq0o')).toBe('ABCDEFGHJKMNPQ00');
    expect(normalizeReceiptKey('ABCD EFGH JKMN PQIL')).toBe('ABCDEFGHJKMNPQ11');
    expect(normalizeReceiptKey('ABCDEFGHJKMNPQU0')).toBeNull();
    expect(normalizeReceiptKey('ABCDEFGHJKMNPQ0')).toBeNull();
  });

  it('expires at the end of the month of the sale in Mexico City, plus the grace days', () => {
    // 31 Dec 2026 23:30 in Mexico City is already January in UTC: still December's sale.
    expect(receiptExpiry(new Date('2027-01-01T05:30:00Z'), 0).toISOString()).toBe('2027-01-01T05:59:59.999Z');
    expect(receiptExpiry(new Date('2026-11-15T12:00:00Z'), 0).toISOString()).toBe('2026-12-01T05:59:59.999Z');
    expect(receiptExpiry(new Date('2026-11-15T12:00:00Z'), 3).toISOString()).toBe('2026-12-04T05:59:59.999Z');
  });
});
