import path from 'node:path';
import { startBuiltApp, type RunningApp } from '@cfdi/testkit/src/browser';
import type { StackHarness } from '@cfdi/api/test/stack';

export type RunningPortal = RunningApp;

/** The built portal (`next build` ran before the tests) served by its server.js on a port of its own. */
export function startPortal(env: Record<string, string>, port: number): Promise<RunningPortal> {
  return startBuiltApp({
    name: 'portal',
    dir: path.resolve(__dirname, '..'),
    env,
    port,
    readyPath: '/',
    logVariable: 'TEST_PORTAL_LOG',
  });
}

/** What the portal needs to invoice on a test stack: its database, Redis, Temporal task queue and sandbox PAC. */
export function portalEnvFor(stack: StackHarness): Record<string, string> {
  const { config } = stack.api;
  return {
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_TASK_QUEUE: stack.taskQueue,
    PAC_SANDBOX_URL: stack.sandbox.url,
  };
}
