import http from 'node:http';
import { classifyAddress, guardedLookup, resolveAllowed, WebhookTargetRefused } from './address-guard';

it.each([
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['::ffff:8.8.8.8', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.1.2.3', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['10.0.0.1', 'internal'],
  ['172.16.5.4', 'internal'],
  ['192.168.1.1', 'internal'],
  ['169.254.169.254', 'internal'],
  ['100.64.0.1', 'internal'],
  ['100.100.100.200', 'internal'],
  ['0.0.0.0', 'internal'],
  ['224.0.0.1', 'internal'],
  ['255.255.255.255', 'internal'],
  ['::', 'internal'],
  ['fe80::1', 'internal'],
  ['fd00:ec2::254', 'internal'],
  ['ff02::1', 'internal'],
  ['::ffff:10.0.0.1', 'internal'],
  ['::ffff:169.254.169.254', 'internal'],
  ['64:ff9b::a00:1', 'internal'],
  ['2002:a00:1::', 'internal'],
])('%s is %s', (address, expected) => {
  expect(classifyAddress(address)).toBe(expected);
});

it('live endpoints reach public addresses only; test endpoints also loopback', async () => {
  await expect(resolveAllowed('8.8.8.8', true)).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
  await expect(resolveAllowed('127.0.0.1', true)).rejects.toThrow(WebhookTargetRefused);
  await expect(resolveAllowed('[::1]', true)).rejects.toThrow(/::1, a loopback address/);
  await expect(resolveAllowed('[::1]', false)).resolves.toHaveLength(1);
  await expect(resolveAllowed('10.0.0.1', false)).rejects.toThrow(/internal/);
});

it('a name that resolves to any internal address is refused, whatever else it resolves to', async () => {
  const rebinding = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ];
  await expect(resolveAllowed('hooks.example.com', true, rebinding)).rejects.toThrow(/169\.254\.169\.254/);
});

it('the guarded lookup stops the connection itself: an HTTP request to a name resolving inside never connects', async () => {
  let connections = 0;
  const server = http.createServer((_req, res) => {
    connections += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const toLoopback = async () => [{ address: '127.0.0.1', family: 4 }];
  const get = (livemode: boolean) =>
    new Promise<number>((resolve, reject) => {
      http
        .get(
          { host: 'rebind.example', port, path: '/', lookup: guardedLookup(livemode, toLoopback) },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        )
        .on('error', reject);
    });
  try {
    await expect(get(true)).rejects.toThrow(/loopback address live endpoints cannot reach/);
    expect(connections).toBe(0);
    await expect(get(false)).resolves.toBe(200);
    expect(connections).toBe(1);
  } finally {
    server.close();
  }
});
