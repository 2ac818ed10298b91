import { Redis } from 'ioredis';
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { buildApp } from './app';

/** Starts the API: config → ORM → Redis → listen; closes everything on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await createOrm(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  await redis.connect().catch(() => undefined); // /ready reports it; the API still starts
  const app = await buildApp({ config, orm, redis });
  app.addHook('onClose', async () => {
    await orm.close();
    redis.disconnect();
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
