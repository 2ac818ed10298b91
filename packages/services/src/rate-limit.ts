import type { Redis } from 'ioredis';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window resets. */
  resetSeconds: number;
}

/**
 * Fixed one-minute window per account in Redis: one INCR per request, the key expires with its window.
 * Simple and exact enough for a per-minute quota; the window boundary may let 2× through in a 1 s burst.
 * `bucket` names a quota of its own beside the requests' (`emails`).
 */
export async function consumeRateLimit(
  redis: Redis,
  accountId: string,
  limit: number,
  now = Date.now(),
  bucket?: string,
): Promise<RateLimitDecision> {
  const window = Math.floor(now / 60_000);
  const key = bucket ? `ratelimit:${bucket}:${accountId}:${window}` : `ratelimit:${accountId}:${window}`;
  const results = await redis.multi().incr(key).expire(key, 61).exec();
  const count = Number(results?.[0]?.[1] ?? 0);
  const resetSeconds = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
}
