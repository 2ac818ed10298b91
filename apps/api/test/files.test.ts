import { createFileStorage, createFileUrlSigner } from '@cfdi/storage';
import { startApi, type ApiHarness } from './harness';
import { PINNED_NOW } from './merchant-fixtures';

const clock = { now: PINNED_NOW };
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({}, { now: () => clock.now });
});
afterAll(async () => api.close());

const key = `acct_files${Date.now()}/test/documents/inv_1/cfdi.xml`;
const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante/>');

async function get(pathAndQuery: string, headers: Record<string, string> = {}) {
  const res = await fetch(api.url + pathAndQuery, { headers });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), text };
}

beforeAll(async () => {
  await createFileStorage(api.config).put(key, xml, 'application/xml');
});

it('serves a stored file without an API key, with its content type, to any process sharing the master key', async () => {
  // A separately built signer (another replica) derives the same secret from the same MASTER_KEY.
  const url = new URL(createFileUrlSigner(api.config, () => clock.now).url(key));
  expect(url.pathname).toBe(`/files/${key}`);
  const res = await get(url.pathname + url.search);
  expect(res).toEqual({ status: 200, contentType: 'application/xml', text: xml.toString() });
});

it('answers 403 problem+json to a missing, tampered, moved or expired signature, and 404 to a signed missing file', async () => {
  const signer = createFileUrlSigner(api.config, () => clock.now);
  const url = new URL(signer.url(key));
  const signature = url.searchParams.get('signature')!;
  const expires = url.searchParams.get('expires')!;
  const otherKey = key.replace('cfdi.xml', 'cfdi.pdf');
  const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
  const otherSecret = createFileUrlSigner(
    { ...api.config, masterKey: { id: 'k2', key: Buffer.alloc(32, 9), previous: [] } },
    () => clock.now,
  );
  const cases = [
    `/files/${key}`,
    `/files/${key}?expires=${expires}`,
    `/files/${key}?expires=${expires}&signature=${flipped}`,
    `/files/${key}?expires=${Number(expires) + 60}&signature=${signature}`,
    `/files/${otherKey}?expires=${expires}&signature=${signature}`,
    `/files/${key.replace('acct_', '..%2Facct_')}?expires=${expires}&signature=${signature}`,
    new URL(otherSecret.url(key)).pathname + new URL(otherSecret.url(key)).search,
  ];
  for (const path of cases) {
    const res = await get(path, { authorization: 'Bearer sk_test_whatever' });
    expect({ path, status: res.status, type: res.contentType }).toEqual({
      path,
      status: 403,
      type: expect.stringMatching(/^application\/problem\+json/),
    });
    expect(JSON.parse(res.text)).toMatchObject({ status: 403, code: 'forbidden' });
  }
  clock.now = new Date(PINNED_NOW.getTime() + api.config.signedUrlTtlSeconds * 1000);
  try {
    expect((await get(url.pathname + url.search)).status).toBe(403);
  } finally {
    clock.now = PINNED_NOW;
  }
  const missing = new URL(signer.url(otherKey));
  expect(await get(missing.pathname + missing.search)).toMatchObject({
    status: 404,
    contentType: expect.stringMatching(/problem\+json/),
  });
});

it('keeps verifying URLs signed under a previous master key while a rotation rolls out', () => {
  const signedUnderOld = new URL(createFileUrlSigner(api.config, () => clock.now).url(key));
  const check = (masterKey: (typeof api.config)['masterKey']) =>
    createFileUrlSigner({ ...api.config, masterKey }, () => clock.now).verify(
      key,
      signedUnderOld.searchParams.get('expires') ?? undefined,
      signedUnderOld.searchParams.get('signature') ?? undefined,
    );
  const next = { id: 'k-next', key: Buffer.alloc(32, 4) };
  expect(check({ ...next, previous: [api.config.masterKey!] })).toEqual({ valid: true });
  expect(check({ ...next, previous: [] })).toEqual({ valid: false, reason: 'bad_signature' });
});
