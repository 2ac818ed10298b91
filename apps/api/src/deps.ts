import type { Redis } from 'ioredis';
import type { Config } from '@cfdi/config';
import type { Orm } from '@cfdi/db';
import type { PlatformDeps } from './platform-deps';

/** Infrastructure the routes use; built once per process by server.ts (or by tests). */
export interface AppDeps extends PlatformDeps {
  config: Readonly<Config>;
  orm: Orm;
  redis: Redis;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
