import { Redis } from 'ioredis';

/**
 * A Redis client that fails fast instead of queueing while Redis is down (rate limiting and /ready must answer
 * at once), keeps reconnecting in the background, and reports connection errors through `onError`.
 */
export async function connectRedis(
  url: string,
  onError: (error: Error) => void = () => undefined,
): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  redis.on('error', onError);
  await redis.connect().catch(() => undefined);
  return redis;
}

/** Closes for good: without clearing the retry strategy a client that never connected keeps reconnecting. */
export function closeRedis(redis: Redis): void {
  redis.options.retryStrategy = () => null;
  redis.disconnect();
}
