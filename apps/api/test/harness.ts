import type { Redis } from 'ioredis';
import type { Orm } from '@cfdi/db';
import { createAccount, type CreatedAccount } from '@cfdi/services';
import { testConfig } from '@cfdi/testkit';
import type { Config } from '@cfdi/config';
import { buildApp } from '../src/app';
import { createAppDeps, type AppDeps } from '../src/deps';

export interface ApiHarness {
  url: string;
  config: Readonly<Config>;
  orm: Orm;
  redis: Redis;
  deps: AppDeps;
  newAccount(overrides?: { rateLimitPerMinute?: number; monthlyCap?: number }): Promise<CreatedAccount>;
  request(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** The real API on an ephemeral port, over real HTTP, against the test PostgreSQL and Redis. */
export async function startApi(
  envOverrides: Record<string, string> = {},
  options: { now?: () => Date; port?: number } = {},
): Promise<ApiHarness> {
  const config = testConfig(envOverrides);
  const deps = await createAppDeps(config, options);
  const { orm, redis } = deps;
  // TEST_API_LOG=1 shows the API's logs when a test needs explaining.
  const app = await buildApp(deps, { logger: process.env.TEST_API_LOG ? { level: 'error' } : false });
  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    config,
    orm,
    redis,
    deps,
    newAccount: (overrides = {}) =>
      createAccount(orm.em.fork(), config, { name: `test ${Date.now()}`, ...overrides }),
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(url + path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // non-JSON bodies are returned as text
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
