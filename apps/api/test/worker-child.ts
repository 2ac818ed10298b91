import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { StackHarness } from './stack';

/** A worker of the stack's task queue in its own process (worker-process.ts), so a test can SIGKILL it mid-activity. */
export function spawnWorker(stack: StackHarness): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'worker-process.ts')], {
    cwd: path.resolve(__dirname, '../../..'),
    env: {
      ...process.env,
      DATABASE_URL: stack.api.config.databaseUrl,
      TEMPORAL_ADDRESS: stack.api.config.temporal.address,
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      PAC_SANDBOX_URL: stack.sandbox.url,
      TEST_CLOCK_START: String(stack.api.deps.now().getTime()),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('worker ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
