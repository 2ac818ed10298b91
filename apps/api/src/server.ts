import './tracing';
import './heap-growth';
import { loadConfig } from '@cfdi/config';
import { stopTracing } from '@cfdi/telemetry';
import { buildApp } from './app';
import { createAppDeps } from './deps';

/**
 * Starts the API: config → dependencies → listen. On SIGTERM/SIGINT it drains: /ready answers 503 at once, requests
 * are still served for DRAIN_DELAY_MS (while load balancers take the replica out), then the listener closes, the
 * requests in flight finish, and everything is closed.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config);
  const app = await buildApp(deps);
  app.addHook('onClose', () => deps.close());
  const shutdown = async (signal: string) => {
    app.log.info({ signal, drainDelayMs: config.api.drainDelayMs }, 'draining');
    app.lifecycle.draining = true;
    await new Promise((resolve) => setTimeout(resolve, config.api.drainDelayMs));
    await app.close();
    await stopTracing();
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
