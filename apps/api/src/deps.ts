import type { Redis } from 'ioredis';
import { Client, Connection } from '@temporalio/client';
import type { Config } from '@cfdi/config';
import { createCatalogService, type CatalogService } from '@cfdi/catalogs';
import { createOrm, type Orm } from '@cfdi/db';
import { closeRedis, connectRedis, createStripeClients, type StripeClients } from '@cfdi/services';
import { createPlatformDeps, type PlatformDeps } from './platform-deps';

/** Infrastructure the routes use; built once per process by server.ts (or by tests). */
export interface AppDeps extends PlatformDeps {
  config: Readonly<Config>;
  orm: Orm;
  redis: Redis;
  catalogs: CatalogService;
  temporal: { client: Client };
  /** Stripe for balance top-ups, per mode (none configured: the billing endpoints answer 503). */
  stripe: StripeClients;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/**
 * Connects everything the API needs. Nothing here requires a dependency to be up: the ORM and Temporal connect
 * lazily and Redis reconnects in the background, so the API starts and /ready tells what is missing.
 */
export async function createAppDeps(config: Readonly<Config>, options: { now?: () => Date } = {}): Promise<AppDeps & { close(): Promise<void> }> {
  const orm = await createOrm(config.databaseUrl);
  const redis = await connectRedis(config.redisUrl, (error) => console.warn(`redis: ${error.message}`));
  const connection = Connection.lazy({ address: config.temporal.address });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const platform = createPlatformDeps(config, options);
  return {
    ...platform,
    config,
    orm,
    redis,
    catalogs: createCatalogService({ em: () => orm.em.fork() }),
    temporal: { client },
    stripe: createStripeClients(config.billing),
    async close() {
      platform.pac.close();
      await connection.close().catch(() => undefined);
      await orm.close();
      closeRedis(redis);
    },
  };
}
