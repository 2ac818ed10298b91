import './heap-growth';
import { loadConfig } from '@cfdi/config';
import { buildApp } from './app';
import { createAppDeps } from './deps';

/** Starts the API: config → dependencies → listen; closes everything on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config);
  const app = await buildApp(deps);
  app.addHook('onClose', () => deps.close());
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
