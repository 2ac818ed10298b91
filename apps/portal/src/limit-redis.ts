import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '@cfdi/config';

// One connection per server process for the middleware's counters (its bundle is apart from the pages').
const holder = globalThis as typeof globalThis & { cfdiPortalLimits?: { config: Config; redis: Redis } };

/** The configuration and a Redis connection for the rate limits the middleware applies. */
export function limitStore(): { config: Config; redis: Redis } {
  if (!holder.cfdiPortalLimits) {
    const config = loadConfig(process.env, { requireMasterKey: false });
    const { Redis } = require('ioredis') as typeof import('ioredis');
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
    redis.on('error', (error: Error) => console.warn(`redis: ${error.message}`));
    holder.cfdiPortalLimits = { config, redis };
  }
  return holder.cfdiPortalLimits;
}
