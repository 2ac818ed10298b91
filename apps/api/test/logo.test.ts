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
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

it('stores PNG, JPEG and WebP by content and serves each back through its signed URL', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  for (const [file, type] of [['logo.png', 'image/png'], ['logo.jpg', 'image/jpeg'], ['logo.webp', 'image/webp']] as const) {
    const bytes = logoFixture(file);
    const res = await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo: bytes.toString('base64') } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...m, logoUrl: expect.stringMatching(new RegExp(`^${api.config.api.publicBaseUrl}/files/.+/test/merchants/${m.id}/logo\\?expires=\\d+&signature=`)) });
    expect(await download(api, res.body.logoUrl)).toEqual({ status: 200, contentType: type, bytes });
  }
  const again = await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey });
  expect((await download(api, again.body.logoUrl)).bytes).toEqual(logoFixture('logo.webp'));
  expect((await api.request('GET', '/v1/merchants', { key: testKey })).body.data[0].logoUrl).toEqual(expect.stringContaining('/logo?expires='));
});

it('rejects a GIF named as PNG, non-base64 text and anything over 500 KB decoded', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const pngHeader = logoFixture('logo.png');
  const sized = (n: number) => Buffer.concat([pngHeader, Buffer.alloc(n - pngHeader.length)]).toString('base64');
  const cases: [string, string, number][] = [
    ['gif', logoFixture('logo.gif').toString('base64'), 400],
    ['text', Buffer.from('just some text, not an image').toString('base64'), 400],
    ['not base64', 'data:image/png;base64,AAAA', 400],
    ['500 KB + 1', sized(512_001), 400],
    ['exactly 500 KB', sized(512_000), 200],
  ];
  for (const [name, logo, status] of cases) {
    const res = await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo } });
    expect({ name, status: res.status, path: res.body.errors?.[0]?.path }).toEqual({ name, status, path: status === 400 ? '/logo' : undefined });
  }
  expect((await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo: '', type: 'png' } })).body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/logo', '/type']);
});

it('issues URLs that stop working once they expire, and fresh ones on every read', async () => {
  const { testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const { body } = await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo: logoFixture('logo.png').toString('base64') } });
  clock.now = new Date(PINNED_NOW.getTime() + (TTL_SECONDS - 1) * 1000);
  expect((await download(api, body.logoUrl)).status).toBe(200);
  clock.now = new Date(PINNED_NOW.getTime() + TTL_SECONDS * 1000);
  const expired = await download(api, body.logoUrl);
  expect(expired.status).toBe(403);
  expect(expired.contentType).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(expired.bytes.toString())).toMatchObject({ code: 'forbidden', detail: expect.stringMatching(/expired/) });
  const fresh = await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey });
  expect((await download(api, fresh.body.logoUrl)).status).toBe(200);
});

it('deletes the logo idempotently; the PDF loader sees it until then', async () => {
  const { accountId, testKey } = await api.newAccount();
  const m = await newMerchant(api, testKey);
  const scope = { accountId, livemode: false };
  const storage = createFileStorage(api.config);
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toBeNull();
  const { body } = await api.request('PUT', `/v1/merchants/${m.id}/logo`, { key: testKey, body: { logo: logoFixture('logo.jpg').toString('base64') } });
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toEqual({ bytes: logoFixture('logo.jpg'), contentType: 'image/jpeg' });
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, { accountId, livemode: true }, m.id)).toBeNull();
  for (let i = 0; i < 2; i++) {
    expect(await api.request('DELETE', `/v1/merchants/${m.id}/logo`, { key: testKey })).toMatchObject({ status: 200, body: { id: m.id, logoUrl: null } });
  }
  expect((await download(api, body.logoUrl)).status).toBe(404);
  expect(await loadMerchantLogo(api.orm.em.fork(), storage, scope, m.id)).toBeNull();
});
