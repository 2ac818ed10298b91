import { randomBytes } from 'node:crypto';
import { startApi, type ApiHarness } from './harness';

// Issue #34 item 5: X-Forwarded-For is believed only from TRUSTED_PROXIES (none by default). The OAuth sign-in page
// throttles failures per client address (20 a window, and 5 per e-mail): a forged header must not give each attempt a
// fresh allowance. Every attempt names another e-mail, so only the per-address count can refuse it.
const REDIRECT = 'http://127.0.0.1:45999/callback';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A pending authorization's sign-in form: what a browser gets from GET /oauth/authorize. */
async function signInForm(api: ApiHarness) {
  const registered = await api.request('POST', '/oauth/register', { body: { redirect_uris: [REDIRECT] } });
  const url = new URL(`${api.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.body.client_id,
    redirect_uri: REDIRECT,
    code_challenge: 'z'.repeat(43),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const page = await fetch(url);
  const cookie = `cfdi_oauth_csrf=${page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]}`;
  const handle = (await page.text()).match(/name="handle" value="([^"]*)"/)![1]!;
  return (forwardedFor: string) =>
    fetch(`${api.url}/oauth/authorize/login`, {
      method: 'POST',
      body: form({
        handle,
        email: `nobody-${randomBytes(6).toString('hex')}@example.com`,
        password: 'wrong password!',
      }),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie,
        'x-forwarded-for': forwardedFor,
      },
    }).then((r) => r.status);
}

/**
 * The sign-in throttle counts per client address, and every suite signs in from 127.0.0.1: a Redis database of this
 * file's own keeps the other suites' attempts (run at the same time) out of the count.
 */
function ownRedisDatabase(): string {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = '/13';
  return url.toString();
}

async function withApi(env: Record<string, string>, run: (api: ApiHarness) => Promise<void>) {
  const api = await startApi({ ...env, REDIS_URL: ownRedisDatabase() });
  const addresses = [
    '127.0.0.1',
    ...Array.from({ length: 21 }, (_, i) => `198.51.100.${i + 1}`),
    '198.51.100.200',
  ];
  const clear = () => api.redis.del(...addresses.map((address) => `console-login:ip:${address}`));
  try {
    await clear();
    await run(api);
  } finally {
    await clear();
    await api.close();
  }
}

it('by default throttles the peer, however X-Forwarded-For changes', async () => {
  await withApi({ TRUSTED_PROXIES: '' }, async (api) => {
    const attempt = await signInForm(api);
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) statuses.push(await attempt(`198.51.100.${i}`));
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
  });
}, 120_000);

it('behind a configured proxy, throttles the address the proxy forwards', async () => {
  await withApi({ TRUSTED_PROXIES: '127.0.0.1' }, async (api) => {
    const attempt = await signInForm(api);
    // 21 clients behind the proxy: each has its own allowance.
    for (let i = 1; i <= 21; i++) expect(await attempt(`198.51.100.${i}`)).toBe(401);
    // One client: the proxy appended its address; what it wrote itself to the left is not believed.
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) statuses.push(await attempt(`10.9.9.${i}, 198.51.100.200`));
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses[20]).toBe(429);
  });
}, 120_000);
