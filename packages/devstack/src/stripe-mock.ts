import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { ensureGoTool, goToolPath, type GoTool } from './go-install';
import { freePort, waitForPort } from './supervisor';

/** Pinned: the newest stripe-mock the Go module proxy serves (`go list -m -versions github.com/stripe/stripe-mock`). */
export const STRIPE_MOCK_VERSION = 'v0.203.0';

const STRIPE_MOCK: GoTool = {
  title: 'stripe-mock',
  name: 'stripe-mock',
  binary: 'stripe-mock',
  pkg: 'github.com/stripe/stripe-mock',
  version: STRIPE_MOCK_VERSION,
};

export function stripeMockPath(): string {
  return goToolPath(STRIPE_MOCK);
}

/** Builds stripe-mock (Stripe's own API mock, answers from its OpenAPI spec) into the tool cache when missing. */
export function ensureStripeMock(log: (line: string) => void): string {
  return ensureGoTool(STRIPE_MOCK, log, ', or point STRIPE_API_BASE at a running stripe-mock');
}

export interface RunningStripeMock {
  /** Base URL for STRIPE_API_BASE. */
  apiBase: string;
  stop(): Promise<void>;
}

/**
 * stripe-mock on a free loopback port, for tests of the Stripe integration: it validates every request against
 * Stripe's OpenAPI spec and answers with fixture objects (fresh ids, no state, sk_test_… keys only).
 */
export async function startStripeMock(log: (line: string) => void): Promise<RunningStripeMock> {
  const binary = ensureStripeMock(log);
  const [port, httpsPort] = [await freePort(), await freePort()];
  // Its HTTPS listener too gets a loopback address: left alone it opens the fixed port 12112 on every interface,
  // which two suites (or two clones) on one machine would fight over. Its stdout is a line per request.
  const child = spawn(binary, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${httpsPort}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  readline.createInterface({ input: child.stderr }).on('line', (line) => log(`stripe-mock: ${line}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await Promise.race([
      waitForPort('127.0.0.1', port, 60_000),
      exited.then(() => {
        throw new Error(`stripe-mock exited at start (code ${child.exitCode})`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { apiBase: `http://127.0.0.1:${port}`, stop };
}
