import type { FieldError } from '../errors';
import { resolveAllowed, WebhookTargetRefused, type Resolver } from './address-guard';

const MAX_URL_LENGTH = 2048;
/** A name that does not resolve in time is accepted: every delivery checks it again after resolving it. */
const RESOLVE_TIMEOUT_MS = 3000;

/**
 * Why `raw` cannot be a webhook endpoint of the mode, or null. Live: https to public addresses only. Test: http or
 * https, to public or loopback addresses (a receiver on the integrator's machine).
 */
export async function endpointUrlProblem(
  raw: string,
  livemode: boolean,
  resolve?: Resolver,
): Promise<FieldError | null> {
  const problem = (message: string): FieldError => ({ path: '/url', message });
  if (raw.length > MAX_URL_LENGTH) return problem(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return problem('must be an absolute URL such as https://example.com/webhooks');
  }
  const schemes = livemode ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol))
    return problem(livemode ? 'live endpoints must use https' : 'must use https or http');
  if (url.username || url.password)
    return problem('must not carry credentials; authenticate deliveries by their CFDI-Signature');
  if (url.hash) return problem('must not have a #fragment');
  try {
    await Promise.race([
      resolveAllowed(url.hostname, livemode, resolve),
      new Promise((resolveTimeout) => setTimeout(resolveTimeout, RESOLVE_TIMEOUT_MS).unref()),
    ]);
  } catch (error) {
    if (error instanceof WebhookTargetRefused) return problem(error.message);
  }
  return null;
}
