import { EKU, newMerchant } from './merchant-fixtures';
import { nominaBody, withEmployee } from './nomina-fixtures';
import { startApi, type ApiHarness } from './harness';

// Issue #34 item 3: text no CFDI can carry, each of which used to be accepted and then fail every stamp as a retryable
// 503 after ~4 s (or, as invalid UTF-8, be repaired to U+FFFD and stamped). Refused once for every route
// (plugins/text-check.ts and the JSON and form parsers), with the JSON pointer of the field.
let api: ApiHarness;
let key: string;
beforeAll(async () => {
  api = await startApi();
  ({ testKey: key } = await api.newAccount());
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
const invoice = (overrides: Record<string, unknown>) => ({
  formaPago: '03',
  usoCfdi: 'G03',
  receiver: RECEIVER,
  items: [item()],
  ...overrides,
});

async function timed(method: string, path: string, body: unknown) {
  const res = await fetch(api.url + path, {
    method,
    signal: AbortSignal.timeout(5000),
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': `ik-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}
const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

describe('issue #34 item 3: control characters, non-characters and invalid UTF-8 are a 400 with the path', () => {
  // Each used to be accepted, then failed every stamp as a retryable 503 after ~4 s (or was stamped repaired).
  let merchantId: string;
  beforeAll(async () => {
    merchantId = (await newMerchant(api, key, EKU)).id;
  });
  const refused = (body: { errors?: { path: string; message: string }[] }) =>
    (body.errors ?? []).map((e) => ({ path: e.path, names: /control characters/.test(e.message) }));

  it.each([
    [
      'merchant legalName U+001F',
      'POST',
      '/v1/merchants',
      { ...EKU, legalName: 'ACME\u001fSA' },
      '/legalName',
    ],
    ['merchant legalName U+FFFE', 'POST', '/v1/merchants', { ...EKU, legalName: 'ACME\ufffe' }, '/legalName'],
    ['merchant legalName U+FFFF', 'POST', '/v1/merchants', { ...EKU, legalName: '\uffffACME' }, '/legalName'],
    [
      'payroll employee.name U+001F',
      'POST',
      '/v1/nominas',
      () => withEmployee(merchantId, { name: 'INGRID\u001fXODAR JIMENEZ' }),
      '/employee/name',
    ],
    [
      'payroll employee.departamento U+FFFF',
      'POST',
      '/v1/nominas',
      () => withEmployee(merchantId, { departamento: 'Ventas\uffff' }),
      '/employee/departamento',
    ],
    [
      'payroll percepción concepto U+0085 (C1)',
      'POST',
      '/v1/nominas',
      () =>
        nominaBody(merchantId, {
          percepciones: [
            { tipo: '001', clave: '001', concepto: 'Sueldo\u0085', importeGravado: 7000, importeExento: 0 },
          ],
        }),
      '/percepciones/0/concepto',
    ],
    [
      'invoice receiver.name U+009B (C1)',
      'POST',
      '/v1/invoices',
      () => invoice({ merchantId, receiver: { ...RECEIVER, name: 'UNIVERSIDAD\u009b' } }),
      '/receiver/name',
    ],
    [
      'invoice item description U+FDD0',
      'POST',
      '/v1/invoices',
      () => invoice({ merchantId, items: [item({ description: 'Equipo \ufdd0' })] }),
      '/items/0/description',
    ],
    [
      'invoice item unit DEL (U+007F)',
      'POST',
      '/v1/invoices',
      () => invoice({ merchantId, items: [item({ unit: 'Pieza\u007f' })] }),
      '/items/0/unit',
    ],
    [
      'invoice folio U+10FFFF',
      'POST',
      '/v1/invoices',
      () => invoice({ merchantId, folio: 'F\u{10FFFF}' }),
      '/folio',
    ],
    [
      'webhook endpoint url U+FFFF',
      'POST',
      '/v1/webhook_endpoints',
      { url: 'https://example.com/hook\uffff', enabledEvents: ['*'] },
      '/url',
    ],
    ['catalog search query U+0007', 'GET', '/v1/catalogs/products?q=%07laptop', undefined, '/q'],
  ])('%s', async (_name, method, path, body, field) => {
    const payload = typeof body === 'function' ? body() : body;
    const res =
      method === 'GET' ? await api.request(method, path, { key }) : await timed(method, path, payload);
    const type = 'type' in res ? res.type : res.headers.get('content-type');
    expect({ status: res.status, type, refused: refused(res.body) }).toEqual({
      status: 400,
      type: expect.stringMatching(/problem\+json/),
      refused: [{ path: field, names: true }],
    });
  });

  it('PATCH of a merchant legalName and of a webhook endpoint url', async () => {
    const patch = await timed('PATCH', `/v1/merchants/${merchantId}`, { legalName: 'ACME\ufffe' });
    expect({ status: patch.status, refused: refused(patch.body) }).toEqual({
      status: 400,
      refused: [{ path: '/legalName', names: true }],
    });
    const endpoint = await timed('POST', '/v1/webhook_endpoints', {
      url: 'https://example.com/hook',
      enabledEvents: ['*'],
    });
    expect(endpoint.status).toBe(201);
    const url = await timed('PATCH', `/v1/webhook_endpoints/${endpoint.body.id}`, {
      url: 'https://example.com/\u001f',
    });
    expect({ status: url.status, refused: refused(url.body) }).toEqual({
      status: 400,
      refused: [{ path: '/url', names: true }],
    });
  });

  it('tab, line feed and carriage return stay accepted in text (XML carries them as character references)', async () => {
    const res = await timed('PATCH', `/v1/merchants/${merchantId}`, {
      legalName: 'ESCUELA\tKEMPER\r\nURGATE',
    });
    expect({ status: res.status, paths: paths(res.body) }).toEqual({ status: 200, paths: [] });
    await timed('PATCH', `/v1/merchants/${merchantId}`, { legalName: EKU.legalName });
  });

  it('a body that is not valid UTF-8 is a 400 on "/", not repaired with U+FFFD', async () => {
    for (const bytes of [
      [0xff], // never valid in UTF-8
      [0xc3], // a truncated two-byte sequence
      [0xed, 0xa0, 0x80], // an encoded UTF-16 surrogate (CESU-8)
      [0xc0, 0xae], // an overlong "."
    ]) {
      const body = Buffer.concat([
        Buffer.from('{"rfc":"EKU9003173C9","regimenFiscal":"601","zip":"42501","legalName":"ACME '),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      const res = await fetch(`${api.url}/v1/merchants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      expect({
        bytes,
        status: res.status,
        type: res.headers.get('content-type'),
        errors: ((await res.json()) as any).errors,
      }).toEqual({
        bytes,
        status: 400,
        type: expect.stringMatching(/problem\+json/),
        errors: [{ path: '/', message: expect.stringMatching(/not valid UTF-8/) }],
      });
    }
  });

  it('a form body that is not valid UTF-8 is a 400 too (OAuth token endpoint: invalid_request; consent page: problem+json)', async () => {
    const form = Buffer.concat([Buffer.from('grant_type=authorization_code&code='), Buffer.from([0xff])]);
    const token = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect({ status: token.status, body: await token.json() }).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: expect.stringMatching(/not valid UTF-8/) },
    });
    const login = await fetch(`${api.url}/oauth/authorize/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect({ status: login.status, type: login.headers.get('content-type') }).toEqual({
      status: 400,
      type: expect.stringMatching(/problem\+json/),
    });
  });
});
