import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { waitFor } from '@cfdi/testkit';

const ROOT = path.resolve(__dirname, '../../..');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Every line the process wrote to stdout (the API's and the sandbox's JSON logs). */
  lines: string[];
}

/**
 * A service started from its real entry point (`node --import tsx apps/<app>/src/<entry>.ts`, one process, so its
 * tracing.ts runs first as in production), ready once `readyUrl` answers 200.
 */
export async function startService(
  entry: string,
  env: Record<string, string>,
  readyUrl: string,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let rest = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString();
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  // The Temporal SDK's INFO lines go to stderr: kept to explain a failed start, not printed.
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitFor(
    async () => {
      if (exited) throw new Error(`${entry} exited before it was ready:\n${errors}`);
      return fetch(readyUrl).then(
        (res) => (res.ok ? true : undefined),
        () => undefined,
      );
    },
    { timeoutMs: 120_000, intervalMs: 250, what: `${entry} ready` },
  );
  return { child, lines };
}
