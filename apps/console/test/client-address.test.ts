import net from 'node:net';
import type { Browser } from 'playwright-core';
import { Redis } from 'ioredis';
import { createOrm, type Orm } from '@cfdi/db';
import { LOGIN_THROTTLE } from '@cfdi/services';
import { testConfig } from '@cfdi/testkit';
import { launchBrowser, signIn } from './browser';
import { startConsole, type RunningConsole } from './console-server';

// Issue #34 item 5: the console took the leftmost X-Forwarded-For as the client's address, so a forged header gave
// every sign-in attempt a fresh per-address allowance and wrote any address into the audit log. The address is the
// TCP peer (server.js records it) unless the peer is one of TRUSTED_PROXIES.
const config = testConfig();
let orm: Orm;
let redis: Redis;
let browser: Browser;
beforeAll(async () => {
  orm = await createOrm(config.databaseUrl);
  redis = new Redis(config.redisUrl);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await redis?.quit();
  await orm?.close();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const FORWARDED = Array.from({ length: LOGIN_THROTTLE.perIp + 1 }, (_, i) => `198.51.100.${i + 1}`);
const throttleKeys = () => ['127.0.0.1', ...FORWARDED].map((ip) => `console-login:ip:${ip}`);

async function withConsole(env: Record<string, string>, run: (app: RunningConsole) => Promise<void>) {
  await redis.del(...throttleKeys());
  const app = await startConsole(
    { DATABASE_URL: config.databaseUrl, REDIS_URL: config.redisUrl, ...env },
    await freePort(),
  );
  try {
    await run(app);
  } finally {
    await app.close();
    await redis.del(...throttleKeys());
  }
}

/** Failed sign-ins of unknown e-mails (one each: the per-e-mail limit stays out of it), each with its own header. */
async function failedSignIns(app: RunningConsole, tag: string) {
  const outcomes: { error: string | null; ip: string | null }[] = [];
  for (const [i, forwarded] of FORWARDED.entries()) {
    const email = `nobody-${tag}-${i}@example.mx`;
    const context = await browser.newContext({
      // The peer header is forged too: server.js must replace it.
      extraHTTPHeaders: { 'x-forwarded-for': forwarded, 'x-cfdi-peer-address': '203.0.113.77' },
    });
    const page = await context.newPage();
    await signIn(page, app.url, email, 'a wrong password');
    const rows: { ip: string }[] = await orm.em
      .fork()
      .execute(
        "select ip from console_audit where action = 'session.sign_in_failed' and actor_email = ? order by created_at desc limit 1",
        [email],
      );
    outcomes.push({ error: new URL(page.url()).searchParams.get('error'), ip: rows[0]?.ip ?? null });
    await context.close();
  }
  return outcomes;
}

it('by default throttles and audits the TCP peer, whatever X-Forwarded-For says', async () => {
  await withConsole({ TRUSTED_PROXIES: '' }, async (app) => {
    const outcomes = await failedSignIns(app, `d${Date.now()}`);
    expect(outcomes.slice(0, LOGIN_THROTTLE.perIp)).toEqual(
      Array(LOGIN_THROTTLE.perIp).fill({ error: 'invalid', ip: '127.0.0.1' }),
    );
    expect(outcomes.at(-1)!.error).toBe('throttled');
  });
}, 300_000);

it('behind a configured proxy, throttles and audits the address it forwards', async () => {
  await withConsole({ TRUSTED_PROXIES: '127.0.0.1' }, async (app) => {
    const outcomes = await failedSignIns(app, `p${Date.now()}`);
    expect(outcomes).toEqual(FORWARDED.map((ip) => ({ error: 'invalid', ip })));
  });
}, 300_000);
