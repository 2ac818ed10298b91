import { BlockList, isIP } from 'node:net';

/**
 * `TRUSTED_PROXIES`: the reverse proxies whose `X-Forwarded-For` the API and the console believe, as IP addresses
 * or CIDR ranges separated by commas (`10.0.0.0/8,::1`). None by default: the client's address is then the TCP
 * peer's, whatever the request claims, so a forged header cannot reset a per-address throttle or write another
 * address into the audit log.
 */
export function parseTrustedProxies(raw: string | undefined, problems: string[]): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || !prefixOk || extra !== undefined)
      problems.push(
        `TRUSTED_PROXIES entry "${entry}" must be an IP address or a CIDR range (10.0.0.0/8, fd00::/8)`,
      );
  }
  return entries;
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
const plain = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/** Whether an address is one of the trusted proxies. */
export function proxyTrust(trusted: readonly string[]): (address: string) => boolean {
  if (!trusted.length) return () => false;
  const list = new BlockList();
  for (const entry of trusted) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    const candidate = plain(address);
    const family = isIP(candidate);
    return family !== 0 && list.check(candidate, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The client's address: the TCP peer, unless the peer is a trusted proxy; then `X-Forwarded-For` is read from the
 * right (each proxy appends the address it saw), skipping trusted proxies, and the first address that is not one is
 * the client. The same rule as Fastify's `trustProxy` with a trust function, so the API and the console agree.
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | null | undefined,
  isTrusted: (address: string) => boolean,
): string {
  let address = plain(peer);
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean)
    .reverse();
  for (const hop of hops) {
    if (!isTrusted(address)) break;
    // A malformed entry is not an address: the last trusted hop is as far as the chain can be followed.
    if (!isIP(plain(hop))) break;
    address = plain(hop);
  }
  return address;
}
