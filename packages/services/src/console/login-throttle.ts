import type { Redis } from 'ioredis';

/**
 * Failed sign-ins counted per e-mail and per client address in Redis, in a fixed window: past the limit, further
 * attempts are refused before the password is even checked. The counters are the same for every face that signs
 * console users in (console, OAuth consent page), so switching faces gives no extra guesses. It complements the
 * per-user lock-out in the database (which needs a known user) by also slowing one address spraying many e-mails.
 */
export const LOGIN_THROTTLE = { perEmail: 5, perIp: 20, windowSeconds: 15 * 60 };

const keys = (email: string, ip: string) =>
  [`console-login:email:${email.trim().toLowerCase()}`, `console-login:ip:${ip}`] as const;

/** Seconds until this e-mail and address may try again; 0 when they may now (or Redis is down). */
export async function loginThrottledFor(redis: Redis, email: string, ip: string): Promise<number> {
  const [emailKey, ipKey] = keys(email, ip);
  const results = await redis
    .multi()
    .get(emailKey)
    .get(ipKey)
    .ttl(emailKey)
    .ttl(ipKey)
    .exec()
    .catch(() => null);
  if (!results) return 0;
  const [byEmail, byIp, emailTtl, ipTtl] = results.map(([, value]) => Number(value ?? 0));
  const waits = [
    byEmail! >= LOGIN_THROTTLE.perEmail ? emailTtl! : 0,
    byIp! >= LOGIN_THROTTLE.perIp ? ipTtl! : 0,
  ];
  // A counter at its limit whose expiry was lost (ttl -1) still throttles, for a whole window.
  return Math.max(...waits.map((ttl) => (ttl < 0 ? LOGIN_THROTTLE.windowSeconds : ttl)));
}

export async function recordLoginFailure(redis: Redis, email: string, ip: string): Promise<void> {
  const [emailKey, ipKey] = keys(email, ip);
  await redis
    .multi()
    .incr(emailKey)
    .expire(emailKey, LOGIN_THROTTLE.windowSeconds, 'NX')
    .incr(ipKey)
    .expire(ipKey, LOGIN_THROTTLE.windowSeconds, 'NX')
    .exec()
    .catch(() => undefined); // Redis down: the database lock-out still bounds guessing (see signInConsoleUser)
}

export async function clearLoginFailures(redis: Redis, email: string): Promise<void> {
  await redis.del(keys(email, '')[0]).catch(() => undefined);
}
