import { loadConfig, ConfigError } from './config';
import { clientAddress, proxyTrust } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
  it('trusts no proxy by default: the peer is the client whatever X-Forwarded-For says', () => {
    const trusted = loadConfig({}).trustedProxies;
    expect(trusted).toEqual([]);
    expect(clientAddress('203.0.113.9', '198.51.100.1', proxyTrust(trusted))).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', '1.2.3.4, 5.6.7.8', proxyTrust(trusted))).toBe('127.0.0.1');
  });

  it('reads X-Forwarded-For from the right, through configured proxies only', () => {
    const trust = proxyTrust(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1,127.0.0.1' }).trustedProxies);
    // The proxy appended what it saw; what the client wrote to the left of it is not believed.
    expect(clientAddress('10.1.1.1', 'forged-by-client, 198.51.100.7', trust)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:127.0.0.1', '1.2.3.4, 198.51.100.7, 10.2.2.2', trust)).toBe('198.51.100.7');
    expect(clientAddress('::1', undefined, trust)).toBe('::1');
    // A peer that is not a proxy is the client, however many hops it lists.
    expect(clientAddress('203.0.113.9', '10.0.0.1', trust)).toBe('203.0.113.9');
    // A malformed hop ends the chain at the last trusted address.
    expect(clientAddress('10.1.1.1', 'not-an-ip', trust)).toBe('10.1.1.1');
  });

  it('refuses entries that are not addresses or CIDR ranges', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_PROXIES: '::1/129' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.1,proxy.local' })).toThrow(
      'TRUSTED_PROXIES entry "proxy.local" must be an IP address or a CIDR range',
    );
  });
});
