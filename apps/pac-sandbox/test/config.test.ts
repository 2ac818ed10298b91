import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSandboxConfig } from '../src/config';

test('listens on loopback at 3100 unless told otherwise', () => {
  expect(loadSandboxConfig({})).toMatchObject({ host: '127.0.0.1', port: 3100 });
  expect(loadSandboxConfig({ PAC_SANDBOX_HOST: '0.0.0.0', PAC_SANDBOX_PORT: '3200' })).toMatchObject({
    host: '0.0.0.0',
    port: 3200,
  });
});

test('reports every bad value with what it should be', () => {
  const load = () => loadSandboxConfig({ PAC_SANDBOX_PORT: 'x', PAC_SANDBOX_USERNAME: 'u' });
  expect(load).toThrow('PAC_SANDBOX_PORT="x" must be a non-negative integer');
  expect(load).toThrow('set both PAC_SANDBOX_USERNAME and PAC_SANDBOX_PASSWORD, or neither');
});

it('reads its database URL and credentials from <NAME>_FILE', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-secrets-'));
  try {
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const config = loadSandboxConfig({
      PAC_SANDBOX_DATABASE_URL_FILE: write('db', 'postgres://cfdi:pw@postgres:5432/pac_sandbox\n'),
      PAC_SANDBOX_USERNAME_FILE: write('user', 'pac\n'),
      PAC_SANDBOX_PASSWORD_FILE: write('password', 'secret\n'),
    });
    expect(config.app.databaseUrl).toBe('postgres://cfdi:pw@postgres:5432/pac_sandbox');
    expect(config.app.credentials).toEqual({ username: 'pac', password: 'secret' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
