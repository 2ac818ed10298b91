import { loadSandboxConfig } from '../src/config';

test('listens on loopback at 3100 unless told otherwise', () => {
  expect(loadSandboxConfig({})).toMatchObject({ host: '127.0.0.1', port: 3100 });
  expect(loadSandboxConfig({ PAC_SANDBOX_HOST: '0.0.0.0', PAC_SANDBOX_PORT: '3200' })).toMatchObject({ host: '0.0.0.0', port: 3200 });
});

test('reports every bad value with what it should be', () => {
  const load = () => loadSandboxConfig({ PAC_SANDBOX_PORT: 'x', PAC_SANDBOX_USERNAME: 'u' });
  expect(load).toThrow('PAC_SANDBOX_PORT="x" must be a non-negative integer');
  expect(load).toThrow('set both PAC_SANDBOX_USERNAME and PAC_SANDBOX_PASSWORD, or neither');
});
