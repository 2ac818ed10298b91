import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from '@cfdi/testkit';
import type { StackHarness } from '@cfdi/api/test/stack';

export interface RunningConsole {
  url: string;
  close(): Promise<void>;
}

/** The built console (`next build` ran before the tests) served by its server.js on a port of its own. */
export async function startConsole(env: Record<string, string>, port: number): Promise<RunningConsole> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.resolve(__dirname, '../server.js'), '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () =>
      (await fetch(`${url}/login`)
        .then((r) => r.ok)
        .catch(() => false)) || undefined,
    { timeoutMs: 30_000, what: `the console at ${url}\n${output}` },
  );
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (process.env.TEST_CONSOLE_LOG) console.log(output);
    },
  };
}

/** What a console needs to act on a test stack: its database, Redis, Temporal task queue and sandbox PAC. */
export function consoleEnvFor(stack: StackHarness): Record<string, string> {
  const { config } = stack.api;
  return {
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_TASK_QUEUE: stack.taskQueue,
    PAC_SANDBOX_URL: stack.sandbox.url,
    // Signed file URLs (exports) point at the stack's API, which checks them with the same MASTER_KEY.
    PUBLIC_BASE_URL: stack.api.url,
  };
}
