import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { StackHarness } from './stack';

/** A worker of the stack's task queue in its own process (worker-process.ts), so a test can SIGKILL it mid-activity. */
export function spawnWorker(stack: StackHarness): Promise<ChildProcess> {
  return spawnChild(stack, 'worker-process.ts', 'worker ready');
}

/** An API of the stack in its own process (api-process.ts) on `port`, so a test can SIGKILL it mid-stamp. */
export function spawnApi(
  stack: StackHarness,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  return spawnChild(stack, 'api-process.ts', 'api ready', { API_PORT: String(port), ...env });
}

function spawnChild(
  stack: StackHarness,
  script: string,
  ready: string,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, script)], {
    cwd: path.resolve(__dirname, '../../..'),
    env: {
      ...process.env,
      DATABASE_URL: stack.api.config.databaseUrl,
      TEMPORAL_ADDRESS: stack.api.config.temporal.address,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      PAC_SANDBOX_URL: stack.sandbox.url,
      TEST_CLOCK_START: String(stack.api.deps.now().getTime()),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes(ready) && resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited early (${code})`)));
  });
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
