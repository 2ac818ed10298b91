import { deflateSync } from 'node:zlib';
import { loadMerchantLogo } from '@cfdi/services';
import { createFileStorage } from '@cfdi/storage';
import { startApi, type ApiHarness } from './harness';
import { logoFixture, newMerchant, PINNED_NOW } from './merchant-fixtures';

const TTL_SECONDS = 2;
const clock = { now: PINNED_NOW };
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({ SIGNED_URL_TTL_SECONDS: String(TTL_SECONDS) }, { now: () => clock.now });
});
afterAll(async () => api.close());
afterEach(() => {
  clock.now = PINNED_NOW;
});

/** Signed URLs carry PUBLIC_BASE_URL; the harness listens elsewhere, so keep path and query only. */
async function download(api: ApiHarness, signedUrl: string) {
  const { pathname, search } = new URL(signedUrl);
  const res = await fetch(api.url + pathname + search);
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

it('stores PNG, JPEG and WebP by content and serves each back through its signed URL', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  for (const [file, type] of [
    ['logo.png', 'image/png'],
    ['logo.jpg', 'image/jpeg'],
    ['logo.webp', 'image/webp'],
  ] as const) {
    const bytes = logoFixture(file);
    const res = await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
      key: testKey,
      body: { logo: bytes.toString('base64') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...m,
      logoUrl: expect.stringMatching(
        new RegExp(
          `^${api.config.api.publicBaseUrl}/files/.+/test/merchants/${m.id}/logo\\?expires=\\d+&signature=`,
        ),
      ),
    });
    expect(await download(api, res.body.logoUrl)).toEqual({ status: 200, contentType: type, bytes });
  }
  const again = await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey });
  expect((await download(api, again.body.logoUrl)).bytes).toEqual(logoFixture('logo.webp'));
  expect((await api.request('GET', '/v1/merchants', { key: testKey })).body.data[0].logoUrl).toEqual(
    expect.stringContaining('/logo?expires='),
  );
});

it('rejects a GIF named as PNG, non-base64 text and anything over 500 KB decoded', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const pngHeader = logoFixture('logo.png');
  const sized = (n: number) =>
    Buffer.concat([pngHeader, Buffer.alloc(n - pngHeader.length)]).toString('base64');
  const cases: [string, string, number][] = [
    ['gif', logoFixture('logo.gif').toString('base64'), 400],
    ['text', Buffer.from('just some text, not an image').toString('base64'), 400],
    ['not base64', 'data:image/png;base64,AAAA', 400],
    ['500 KB + 1', sized(512_001), 400],
    ['exactly 500 KB', sized(512_000), 200],
  ];
  for (const [name, logo, status] of cases) {
    const res = await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo } });
    expect({ name, status: res.status, path: res.body.errors?.[0]?.path }).toEqual({
      name,
      status,
      path: status === 400 ? '/logo' : undefined,
    });
  }
  expect(
    (
      await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
        key: testKey,
        body: { logo: '', type: 'png' },
      })
    ).body.errors
      .map((e: { path: string }) => e.path)
      .sort(),
  ).toEqual(['/logo', '/type']);
});

it('issues URLs that stop working once they expire, and fresh ones on every read', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const { body } = await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
    key: testKey,
    body: { logo: logoFixture('logo.png').toString('base64') },
  });
  clock.now = new Date(PINNED_NOW.getTime() + (TTL_SECONDS - 1) * 1000);
  expect((await download(api, body.logoUrl)).status).toBe(200);
  clock.now = new Date(PINNED_NOW.getTime() + TTL_SECONDS * 1000);
  const expired = await download(api, body.logoUrl);
  expect(expired.status).toBe(403);
  expect(expired.contentType).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(expired.bytes.toString())).toMatchObject({
    code: 'forbidden',
    detail: expect.stringMatching(/expired/),
  });
  const fresh = await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey });
  expect((await download(api, fresh.body.logoUrl)).status).toBe(200);
});

it('deletes the logo idempotently; the PDF loader sees it until then', async () => {
  const { accountId, testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const scope = { accountId, livemode: false };
  const storage = createFileStorage(api.config);
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toBeNull();
  const { body } = await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
    key: testKey,
    body: { logo: logoFixture('logo.jpg').toString('base64') },
  });
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toEqual({
    bytes: logoFixture('logo.jpg'),
    contentType: 'image/jpeg',
  });
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, { accountId, livemode: true }, m.id)).toBeNull();
  for (let i = 0; i < 2; i++) {
    expect(await api.request('DELETE', `/v1/merchants/${m.id}/logo`, { key: testKey })).toMatchObject({
      status: 200,
      body: { id: m.id, logoUrl: null },
    });
  }
  expect((await download(api, body.logoUrl)).status).toBe(404);
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toBeNull();
});

/** A PNG whose header claims width × height: enough for the dimension check, which reads no pixel. */
function pngClaiming(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const idat = deflateSync(Buffer.alloc(64 * 1024)); // the start of the zero rows a bomb would carry
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

it('refuses an image over 4,000 pixels a side (a decompression bomb fits in 500 KB) with a 400 on /logo', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  for (const [width, height] of [
    [11_000, 11_000],
    [4001, 10],
    [10, 4001],
  ]) {
    const started = Date.now();
    const res = await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
      key: testKey,
      body: { logo: pngClaiming(width!, height!).toString('base64') },
    });
    expect({ status: res.status, errors: res.body.errors }).toEqual({
      status: 400,
      errors: [{ path: '/logo', message: `is ${width} × ${height} pixels; the limit is 4000 × 4000` }],
    });
    expect(Date.now() - started).toBeLessThan(5000);
  }
  expect((await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey })).body.logoUrl).toBeNull();
}, 60_000);

it('keeps, beside the logo as uploaded, a small PNG made once at upload for the PDF header', async () => {
  const { loadPrintableLogo } = await import('@cfdi/services');
  const { default: sharp } = await import('sharp');
  const { testKey, accountId } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const wide = await sharp({ create: { width: 2000, height: 400, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  expect(
    (
      await api.request('PUT', `/v1/merchants/${m.id}/logo`, {
        key: testKey,
        body: { logo: wide.toString('base64') },
      })
    ).status,
  ).toBe(200);
  const storage = createFileStorage(api.config);
  const printable = await loadPrintableLogo(api.orm.em.fork(), storage, { accountId, livemode: false }, m.id);
  const meta = await sharp(printable!).metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
    format: 'png',
    width: 680,
    height: 136,
  });
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, { accountId, livemode: false }, m.id)).toEqual({
    bytes: wide,
    contentType: 'image/jpeg',
  });
}, 60_000);
