import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { freePort, waitForHttp } from '@cfdi/devstack';
import { beginIdempotent, createApiKey, ValidationError } from '@cfdi/services';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { runIdempotent } from '../src/operations/idempotent';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant, satUpload } from './merchant-fixtures';

// Regression tests for issue #23's outside probe: inputs that used to freeze the API, answer 500 or leave
// Fastify's own JSON instead of problem+json, and the decisions taken about what a key may read.
let api: ApiHarness;
let key: string;
let accountId: string;
beforeAll(async () => {
  api = await startApi();
  ({ testKey: key, accountId } = await api.newAccount());
}, 60_000);
afterAll(async () => api?.close());

const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};
const item = (overrides: Record<string, unknown> = {}) => ({
  productCode: '43211503',
  unitCode: 'H87',
  description: 'Equipo',
  quantity: 1,
  unitPrice: 1,
  ...overrides,
});
let merchantWithCsd = 'mch_x';
const invoice = (overrides: Record<string, unknown> = {}) => ({
  merchantId: merchantWithCsd,
  formaPago: '03',
  usoCfdi: 'G03',
  receiver: RECEIVER,
  items: [item()],
  ...overrides,
});

/** A request that must answer within `ms`: the frozen event loop of defect 1 never answered at all. */
async function timed(method: string, path: string, body: unknown, ms = 5000, base = api.url) {
  const started = Date.now();
  const res = await fetch(base + path, {
    method,
    signal: AbortSignal.timeout(ms),
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': `ik-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: (await res.json()) as any,
    ms: Date.now() - started,
  };
}
const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

describe('defect 1: magnitudes are refused before any computation', () => {
  // The API in a process of its own: a request that freezes its event loop must fail this test, not freeze jest.
  // A merchant with a CSD, so a request gets as far as the tax engine (where the unbounded search used to spin).
  let child: ChildProcess;
  let sandbox: RunningPacSandbox;
  let base: string;
  beforeAll(async () => {
    sandbox = await startPacSandbox();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const root = path.resolve(__dirname, '../../..');
    child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/server.ts')], {
      cwd: root,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        API_PORT: String(port),
        LOG_LEVEL: 'error',
        PAC_SANDBOX_URL: sandbox.url,
      },
    });
    await waitForHttp(`${base}/health`, 60_000);
    merchantWithCsd = (await timed('POST', '/v1/merchants', EKU, 30_000, base)).body.id;
    const csd = await timed(
      'POST',
      `/v1/merchants/${merchantWithCsd}/csd`,
      satUpload('EKU9003173C9-csd'),
      30_000,
      base,
    );
    if (csd.status !== 201) throw new Error(`CSD not accepted: ${csd.status} ${JSON.stringify(csd.body)}`);
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await sandbox?.close();
  });

  it.each([
    ['quantity 1e18', () => invoice({ items: [item({ quantity: 1e18 })] }), '/items/0/quantity'],
    ['quantity 1.4e17', () => invoice({ items: [item({ quantity: 1.4e17 })] }), '/items/0/quantity'],
    ['quantity 1e308', () => invoice({ items: [item({ quantity: 1e308 })] }), '/items/0/quantity'],
    ['unitPrice 1e21', () => invoice({ items: [item({ unitPrice: 1e21 })] }), '/items/0/unitPrice'],
    ['shipping 1e18', () => invoice({ shipping: { amount: 1e18 } }), '/shipping/amount'],
    ['cartDiscount 1e18', () => invoice({ cartDiscount: 1e18 }), '/cartDiscount'],
    [
      'quantity × unitPrice over the limit',
      () => invoice({ items: [item({ quantity: 1e12, unitPrice: 1e13 })] }),
      '/items/0/quantity',
    ],
  ])(
    'POST /v1/invoices with %s: 400 on the field at once, /health still answers',
    async (_name, body, field) => {
      const res = await timed('POST', '/v1/invoices', body(), 5000, base);
      expect({ status: res.status, type: res.type, paths: paths(res.body) }).toEqual({
        status: 400,
        type: expect.stringMatching(/problem\+json/),
        paths: expect.arrayContaining([field]),
      });
      expect((await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
    },
    30_000,
  );

  it('refuses the same magnitudes on credit notes and payments', async () => {
    const credit = await timed(
      'POST',
      '/v1/credit_notes',
      {
        merchantId: merchantWithCsd,
        relatedInvoiceId: 'inv_x',
        formaPago: '03',
        items: [item({ quantity: 1e18 })],
      },
      5000,
      base,
    );
    expect({ status: credit.status, paths: paths(credit.body) }).toEqual({
      status: 400,
      paths: ['/items/0/quantity'],
    });
    const product = await timed(
      'POST',
      '/v1/credit_notes',
      {
        merchantId: merchantWithCsd,
        relatedInvoiceId: 'inv_x',
        formaPago: '03',
        items: [item({ quantity: 1e12, unitPrice: 1e12 })],
      },
      5000,
      base,
    );
    expect({ status: product.status, paths: paths(product.body) }).toEqual({
      status: 400,
      paths: ['/items/0/quantity'],
    });
    const payment = await timed(
      'POST',
      '/v1/invoices/inv_x/payments',
      { monto: 1e18, formaPago: '03' },
      5000,
      base,
    );
    expect({ status: payment.status, paths: paths(payment.body) }).toEqual({
      status: 400,
      paths: ['/monto'],
    });
  }, 30_000);
});

describe('defect 3: NUL and unpaired surrogates are a 400 with the path, everywhere', () => {
  let merchantId: string;
  beforeAll(async () => {
    merchantId = (await newMerchant(api, key, EKU)).id;
  });
  it.each([
    ['merchant legalName', 'POST', '/v1/merchants', { ...EKU, legalName: 'ACME\u0000' }, '/legalName'],
    ['merchant serie (lone surrogate)', 'POST', '/v1/merchants', { ...EKU, serie: 'A\ud800' }, '/serie'],
    ['invoice merchantId', 'POST', '/v1/invoices', invoice({ merchantId: '\u0000' }), '/merchantId'],
    ['invoice usoCfdi', 'POST', '/v1/invoices', invoice({ usoCfdi: 'G0\u0000' }), '/usoCfdi'],
    ['a field name', 'POST', '/v1/invoices', { ...invoice(), 'x\u0000': 1 }, '/x\u0000'],
    [
      'credit note relatedInvoiceId',
      'POST',
      '/v1/credit_notes',
      { merchantId: 'mch_x', relatedInvoiceId: 'inv_\udc00', formaPago: '03', items: [item()] },
      '/relatedInvoiceId',
    ],
  ])('%s', async (_name, method, path, body, field) => {
    const res = await timed(method, path, body);
    expect({ status: res.status, type: res.type, paths: paths(res.body) }).toEqual({
      status: 400,
      type: expect.stringMatching(/problem\+json/),
      paths: [field],
    });
  });

  it('PATCH of a merchant, query strings and path parameters', async () => {
    const patch = await timed('PATCH', `/v1/merchants/${merchantId}`, { defaultClaveUnidad: 'H8\u0000' });
    expect({ status: patch.status, paths: paths(patch.body) }).toEqual({
      status: 400,
      paths: ['/defaultClaveUnidad'],
    });
    for (const [url, field] of [
      ['/v1/invoices?uuid=%00', '/uuid'],
      ['/v1/invoices?starting_after=%00', '/starting_after'],
      ['/v1/invoices/%00', '/params/id'],
    ]) {
      const res = await api.request('GET', url!, { key });
      expect({
        url,
        status: res.status,
        type: res.headers.get('content-type'),
        paths: paths(res.body),
      }).toEqual({ url, status: 400, type: expect.stringMatching(/problem\+json/), paths: [field] });
    }
  });

  it('an answer that cannot be stored never leaves the Idempotency-Key in flight', async () => {
    const scope = { accountId, livemode: false, keyId: 'key_test', merchantIds: null };
    const ik = `ik-unstorable-${Date.now()}`;
    // PostgreSQL refuses \u0000 in jsonb: the stored problem (echoing the value) cannot be written.
    const execute = async () => {
      throw new ValidationError('echoes \u0000', [{ path: '/a', message: 'echoes \u0000' }]);
    };
    await expect(
      runIdempotent(api.deps, scope, ik, 'POST /test', { a: 1 }, execute, execute),
    ).rejects.toThrow('echoes');
    expect(await beginIdempotent(api.orm.em.fork(), scope, ik, 'POST /test', 'another-hash-is-fine')).toEqual(
      { kind: 'execute' },
    );
  });
});

describe('defect 5 and the parser: every refusal is problem+json', () => {
  it('answers an invalid percent-encoding in the path with problem+json', async () => {
    const res = await api.request('GET', '/v1/invoices/%c0%ae', { key });
    expect({
      status: res.status,
      type: res.headers.get('content-type'),
      code: res.body.code,
      paths: paths(res.body),
    }).toEqual({
      status: 400,
      type: expect.stringMatching(/problem\+json/),
      code: 'validation_error',
      paths: ['/params'],
    });
  });

  it('answers a header Node refuses (a NUL in it) with problem+json', async () => {
    const port = new URL(api.url).port;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /v1/invoices HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n'),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 400,
      code: 'validation_error',
    });
  });
});

describe('decisions', () => {
  it('a key restricted to some merchants cannot read the account ledger (403); a whole-account key can', async () => {
    const merchant = await newMerchant(api, key, EKU);
    const restricted = await createApiKey(api.orm.em.fork(), {
      accountId,
      livemode: false,
      merchantIds: [merchant.id],
    });
    const refused = await api.request('GET', '/v1/billing/transactions', { key: restricted.secret });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'forbidden' });
    expect((await api.request('GET', '/v1/balance', { key: restricted.secret })).status).toBe(200);
    expect((await api.request('GET', '/v1/billing/transactions', { key })).status).toBe(200);
  });

  it('/metrics needs METRICS_TOKEN when set, and is closed in production without one', async () => {
    const guarded = await startApi({ METRICS_TOKEN: 'scrape-secret' });
    try {
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
      expect(
        (await fetch(`${guarded.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status,
      ).toBe(401);
      const ok = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: 'Bearer scrape-secret' },
      });
      expect({ status: ok.status, text: await ok.text() }).toEqual({
        status: 200,
        text: expect.stringContaining('cfdi_documents'),
      });
    } finally {
      await guarded.close();
    }
    const production = await startApi({ NODE_ENV: 'production', LIVE_ENABLED: 'false' });
    try {
      const res = await fetch(`${production.url}/metrics`);
      expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
        status: 403,
        type: expect.stringMatching(/problem\+json/),
      });
    } finally {
      await production.close();
    }
    expect((await fetch(`${api.url}/metrics`)).status).toBe(200);
  }, 60_000);
});

it('answers a body nested 100,000 levels deep with a 400, not a stack overflow (found by the fuzzer)', async () => {
  const res = await api.request('POST', '/v1/payments/pay_x/cancel', {
    key,
    headers: { 'idempotency-key': `ik-deep-${Date.now()}`, 'content-type': 'application/json' },
    rawBody: '['.repeat(100_000) + ']'.repeat(100_000),
  });
  expect({ status: res.status, type: res.headers.get('content-type'), errors: res.body.errors }).toEqual({
    status: 400,
    type: expect.stringMatching(/problem\+json/),
    errors: [{ path: '/', message: 'is nested deeper than 32 levels' }],
  });
});

it('refuses an array past its maxItems without validating each item (found by the fuzzer: 15,000 items held the loop 677 ms)', async () => {
  // Items that are each invalid: validated one by one they would add errors per item; refused by length there is one.
  const items = Array.from({ length: 15_000 }, () => ({ bogus: 1 }));
  const res = await timed('POST', '/v1/invoices', invoice({ merchantId: 'mch_x', items }));
  expect({ status: res.status, type: res.type, errors: res.body.errors }).toEqual({
    status: 400,
    type: expect.stringMatching(/problem\+json/),
    errors: [{ path: '/items', message: 'must NOT have more than 500 items (has 15000)' }],
  });
  // An array inside an array's items is bounded the same way.
  const nested = await timed(
    'POST',
    '/v1/invoices',
    invoice({ merchantId: 'mch_x', items: [item({ pedimentos: Array(101).fill('21  47  3807  8003832') })] }),
  );
  expect(paths(nested.body)).toEqual(['/items/0/pedimentos']);
});
