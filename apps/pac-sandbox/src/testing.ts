import { randomBytes } from 'node:crypto';
import { buildSandboxApp, type SandboxOptions } from './app';
import { dropDatabase } from './storage/database';

export interface RunningPacSandbox {
  /** Base URL to use as PAC_SANDBOX_URL. */
  url: string;
  close(): Promise<void>;
}

const ADMIN_URL = process.env.PAC_SANDBOX_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The sandbox PAC in this process on an ephemeral port, with a fresh database dropped on close, so suites
 * never share registrations or stamps. Pass `now` to pin its clock like the API's.
 */
export async function startPacSandbox(
  options: Partial<Omit<SandboxOptions, 'databaseUrl'>> = {},
): Promise<RunningPacSandbox> {
  const url = new URL(ADMIN_URL);
  url.pathname = `/pac_sandbox_test_${randomBytes(6).toString('hex')}`;
  const databaseUrl = url.toString();
  const app = await buildSandboxApp({ databaseUrl, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('pac sandbox: no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      await app.close();
      await dropDatabase(databaseUrl);
    },
  };
}
