import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Config } from '@cfdi/config';

const CFDI = path.resolve(__dirname, '../../../cli/bin/cfdi.js');

/** Runs the real `cfdi` command against the test database and Temporal server (`env` overrides either). */
export function runCli(
  config: Readonly<Config>,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CFDI, ...args],
      {
        env: {
          ...process.env,
          DATABASE_URL: config.databaseUrl,
          TEMPORAL_ADDRESS: config.temporal.address,
          TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
          PAC_SANDBOX_URL: config.pac.sandboxUrl,
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}
