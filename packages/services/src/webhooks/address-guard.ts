import dns from 'node:dns';
import net from 'node:net';

/**
 * SSRF guard: where a webhook may be delivered. Live endpoints reach public unicast addresses only; test endpoints
 * may also reach loopback (an integrator's local receiver). Everything else is internal: private, CGNAT, link-local
 * (cloud metadata 169.254.169.254), multicast, reserved, documentation ranges, and IPv6 forms that embed or route to
 * IPv4 (NAT64, 6to4, Teredo). IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4 address.
 */
const internal = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(prefix, bits, 'ipv6');

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export type AddressClass = 'public' | 'loopback' | 'internal';

export function classifyAddress(address: string): AddressClass {
  const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
  if (loopback.check(address, family)) return 'loopback';
  return internal.check(address, family) ? 'internal' : 'public';
}

function addressAllowed(address: string, livemode: boolean): boolean {
  const verdict = classifyAddress(address);
  return verdict === 'public' || (verdict === 'loopback' && !livemode);
}

export class WebhookTargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetRefused';
  }
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * The addresses `hostname` (a name or an IP literal, IPv6 with or without brackets) resolves to, all of them
 * allowed for the mode; refused when any is not, so a name that also points inside is never used.
 */
export async function resolveAllowed(
  hostname: string,
  livemode: boolean,
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await resolve(host);
  if (!addresses.length) throw new WebhookTargetRefused(`${host} does not resolve`);
  const refused = addresses.find((a) => !addressAllowed(a.address, livemode));
  if (refused) {
    throw new WebhookTargetRefused(
      `${host} resolves to ${refused.address}, a ${classifyAddress(refused.address)} address ${livemode ? 'live' : 'test'} endpoints cannot reach`,
    );
  }
  return addresses;
}

/**
 * A `lookup` for http(s).request that resolves through the guard, so the socket connects to the very addresses that
 * were checked (a DNS-rebinding name cannot swap in an internal one between the check and the connection).
 */
export function guardedLookup(livemode: boolean, resolve: Resolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, livemode, resolve).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        if (!wanted.length)
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${options.family} address`), {
              code: 'ENOTFOUND',
            }),
            '',
            0,
          );
        if (options.all)
          return (
            callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void
          )(null, wanted);
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: Error) =>
        callback(
          Object.assign(error, { code: (error as NodeJS.ErrnoException).code ?? 'EWEBHOOKREFUSED' }),
          '',
          0,
        ),
    );
  };
}
