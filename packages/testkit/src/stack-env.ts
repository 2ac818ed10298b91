import { randomBytes } from 'node:crypto';

export interface StackEnvOptions {
  databaseUrl: string;
  pacDatabaseUrl: string;
  apiPort: number;
  pacPort: number;
  taskQueue: string;
  storageDir: string;
  logLevel?: string;
}

/**
 * The environment of a multi-process stack that benches and drills start (API, worker and sandbox PAC): production
 * mode against the sandbox PAC, test mode only, a fresh master key, and no rate limit to measure instead of the load.
 */
export function stackEnv(options: StackEnvOptions): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: options.logLevel ?? 'warn',
    DATABASE_URL: options.databaseUrl,
    API_PORT: String(options.apiPort),
    PAC_SANDBOX_PORT: String(options.pacPort),
    PAC_SANDBOX_HOST: '127.0.0.1',
    PAC_SANDBOX_URL: `http://127.0.0.1:${options.pacPort}`,
    PAC_SANDBOX_DATABASE_URL: options.pacDatabaseUrl,
    MASTER_KEY: randomBytes(32).toString('base64'),
    LIVE_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    TEMPORAL_TASK_QUEUE: options.taskQueue,
    STORAGE_DIR: options.storageDir,
  };
}
