import type { Redis } from 'ioredis';

/**
 * Failed console sign-ins counted per e-mail and per client address in Redis, in a fixed window: past the limit,
 * further attempts are refused before the password is even checked. It complements the per-user lock-out in the
 * database (which needs a known user) by also slowing one address spraying many e-mails.
 */
export const LOGIN_THROTTLE = { perEmail: 5, perIp: 20, windowSeconds: 15 * 60 };

const keys = (email: string, ip: string) => [`console-login:email:${email.trim().toLowerCase()}`, `console-login:ip:${ip}`] as const;

export async function loginThrottled(redis: Redis, email: string, ip: string): Promise<boolean> {
  const [byEmail, byIp] = await redis.mget(...keys(email, ip)).catch(() => [null, null]);
  return Number(byEmail ?? 0) >= LOGIN_THROTTLE.perEmail || Number(byIp ?? 0) >= LOGIN_THROTTLE.perIp;
}

export async function recordLoginFailure(redis: Redis, email: string, ip: string): Promise<void> {
  const [emailKey, ipKey] = keys(email, ip);
  await redis.multi().incr(emailKey).expire(emailKey, LOGIN_THROTTLE.windowSeconds, 'NX').incr(ipKey).expire(ipKey, LOGIN_THROTTLE.windowSeconds, 'NX').exec()
    .catch(() => undefined); // Redis down: the database lock-out still bounds guessing (see signInConsoleUser)
}

export async function clearLoginFailures(redis: Redis, email: string): Promise<void> {
  await redis.del(keys(email, '')[0]).catch(() => undefined);
}
