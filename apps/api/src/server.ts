import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { closeRedis, connectRedis } from '@cfdi/services';
import { buildApp } from './app';
import { createPlatformDeps } from './platform-deps';

/** Starts the API: config → ORM → Redis → listen; closes everything on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await createOrm(config.databaseUrl);
  // Neither PostgreSQL nor Redis has to be up for the API to start: /ready reports them.
  const redis = await connectRedis(config.redisUrl, (error) => console.warn(`redis: ${error.message}`));
  const platform = createPlatformDeps(config);
  const app = await buildApp({ config, orm, redis, ...platform });
  app.addHook('onClose', async () => {
    platform.pac.close();
    await orm.close();
    closeRedis(redis);
  });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ host: config.api.host, port: config.api.port });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
