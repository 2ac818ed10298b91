import { signFileUrl, verifyFileSignature } from './signed-urls';
import { fileUrlSecret } from './signing-secret';

const secret = fileUrlSecret({ key: Buffer.alloc(32, 7) });
const now = new Date('2026-11-21T18:00:00Z');
const key = 'acct_1/test/merchants/mch_1/logo';

function parts(url: string) {
  const parsed = new URL(url);
  return {
    key: parsed.pathname.replace(/^\/files\//, ''),
    expires: parsed.searchParams.get('expires') ?? undefined,
    signature: parsed.searchParams.get('signature') ?? undefined,
  };
}

it('signs the key and the expiry, and accepts the URL until it expires', () => {
  const url = signFileUrl({ baseUrl: 'https://api.example.com/', key, ttlSeconds: 900, secret, now });
  expect(url).toMatch(
    /^https:\/\/api\.example\.com\/files\/acct_1\/test\/merchants\/mch_1\/logo\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/,
  );
  const p = parts(url);
  expect(verifyFileSignature({ ...p, secret, now })).toEqual({ valid: true });
  expect(verifyFileSignature({ ...p, secret, now: new Date(now.getTime() + 899_000) })).toEqual({
    valid: true,
  });
  expect(verifyFileSignature({ ...p, secret, now: new Date(now.getTime() + 900_000) })).toEqual({
    valid: false,
    reason: 'expired',
  });
});

it('rejects another key, a longer expiry, another secret and malformed values', () => {
  const p = parts(signFileUrl({ baseUrl: 'http://x', key, ttlSeconds: 60, secret, now }));
  expect(verifyFileSignature({ ...p, key: 'acct_2/test/merchants/mch_1/logo', secret, now })).toMatchObject({
    reason: 'bad_signature',
  });
  expect(verifyFileSignature({ ...p, expires: String(Number(p.expires) + 3600), secret, now })).toMatchObject(
    { reason: 'bad_signature' },
  );
  expect(
    verifyFileSignature({ ...p, secret: fileUrlSecret({ key: Buffer.alloc(32, 8) }), now }),
  ).toMatchObject({ reason: 'bad_signature' });
  for (const bad of [
    { expires: undefined },
    { expires: '1e9' },
    { expires: `0${p.expires}` },
    { signature: 'short' },
    { signature: undefined },
  ]) {
    expect(verifyFileSignature({ ...p, ...bad, secret, now })).toMatchObject({ reason: 'malformed' });
  }
});

it('accepts exactly the signature as issued: another spelling of the same MAC bytes is refused', () => {
  const p = parts(signFileUrl({ baseUrl: 'http://x', key, ttlSeconds: 60, secret, now }));
  // The 43rd base64url character carries 2 unused bits: flipping one still decodes to the same 32 bytes.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(p.signature!.at(-1)!);
  const variant = p.signature!.slice(0, -1) + alphabet[last ^ 1];
  expect(Buffer.from(variant, 'base64url')).toEqual(Buffer.from(p.signature!, 'base64url'));
  expect(verifyFileSignature({ ...p, signature: variant, secret, now })).toMatchObject({
    reason: 'bad_signature',
  });
});

it('derives a stable secret from the master key and a per-process one without it', () => {
  expect(fileUrlSecret({ key: Buffer.alloc(32, 7) })).toEqual(secret);
  expect(fileUrlSecret({ key: Buffer.alloc(32, 7) })).not.toEqual(Buffer.alloc(32, 7));
  expect(fileUrlSecret(null)).toEqual(fileUrlSecret(null));
  expect(fileUrlSecret(null)).not.toEqual(secret);
});
