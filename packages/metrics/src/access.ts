import { createHash, timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'unauthorized' | 'forbidden';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may scrape /metrics (the API's and the worker's health port alike): with METRICS_TOKEN set, only
 * `Authorization: Bearer <token>` (compared in constant time); without it, anyone in development and test, nobody
 * in production (the numbers describe the platform's load and backlog).
 */
export function metricsAccess(
  config: { metricsToken: string | null; nodeEnv: string },
  authorization: string | undefined,
): MetricsAccess {
  if (!config.metricsToken) return config.nodeEnv === 'production' ? 'forbidden' : 'allowed';
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return presented && timingSafeEqual(digest(presented), digest(config.metricsToken))
    ? 'allowed'
    : 'unauthorized';
}
