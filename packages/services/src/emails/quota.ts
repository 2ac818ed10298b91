import type { Redis } from 'ioredis';
import { RateLimitedError } from '../errors';
import { consumeRateLimit } from '../rate-limit';

/**
 * Counts one e-mail against the account's per-minute quota (EMAIL_RATE_LIMIT_PER_MINUTE), beside the requests'
 * limit: a 429 beyond it, so an integration in a loop cannot turn the platform's SMTP sender into a spam source.
 * While Redis is unreachable it is not enforced, like the requests' limit.
 */
export async function consumeEmailQuota(redis: Redis, accountId: string, perMinute: number): Promise<void> {
  const decision = await consumeRateLimit(redis, accountId, perMinute, Date.now(), 'emails').catch(
    () => null,
  );
  if (decision && !decision.allowed)
    throw new RateLimitedError(decision.resetSeconds, {
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': '0',
    });
}
