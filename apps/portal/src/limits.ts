import 'server-only';
import { headers } from 'next/headers';
import { consumePortalLimits } from '@cfdi/services';
import { clientIp } from './client-ip';
import { platform } from './platform';

/** Counts a server action naming `keys` against the visitor's address and those keys; false when over a limit. */
export async function withinLimits(keys: readonly string[]): Promise<boolean> {
  const { config, redis } = await platform();
  const decision = await consumePortalLimits(redis, clientIp(await headers(), config.trustedProxies), keys, {
    perIp: config.portal.rateLimitPerIp,
    perKey: config.portal.rateLimitPerKey,
  });
  return decision.allowed;
}
