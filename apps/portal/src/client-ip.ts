import { clientAddress, proxyTrust } from '@cfdi/config';

/** Set by server.js on every request: the TCP peer's address (a client's own value under this name is replaced). */
export const PEER_HEADER = 'x-cfdi-peer-address';

const trust = globalThis as typeof globalThis & { cfdiPortalProxyTrust?: (address: string) => boolean };

/**
 * The client's address, which the rate limits count: the TCP peer, or, when the peer is one of TRUSTED_PROXIES, the
 * address X-Forwarded-For gives behind it (the API's and the console's rule). Never the header alone.
 */
export function clientIp(headers: Headers, trustedProxies: readonly string[]): string {
  const peer = headers.get(PEER_HEADER);
  if (!peer) return 'unknown';
  trust.cfdiPortalProxyTrust ??= proxyTrust(trustedProxies);
  return clientAddress(peer, headers.get('x-forwarded-for'), trust.cfdiPortalProxyTrust);
}
