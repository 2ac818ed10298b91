import path from 'node:path';
import { startBuiltApp, type RunningApp } from '@cfdi/testkit/src/browser';
import type { StackHarness } from '@cfdi/api/test/stack';

export type RunningConsole = RunningApp;

/** The built console (`next build` ran before the tests) served by its server.js on a port of its own. */
export function startConsole(env: Record<string, string>, port: number): Promise<RunningConsole> {
  return startBuiltApp({
    name: 'console',
    dir: path.resolve(__dirname, '..'),
    env,
    port,
    readyPath: '/login',
    logVariable: 'TEST_CONSOLE_LOG',
  });
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
