import './tracing';
import { stopTracing } from '@cfdi/telemetry';
import { buildSandboxApp } from './app';
import { loadSandboxConfig } from './config';

async function main(): Promise<void> {
  const config = loadSandboxConfig();
  const app = await buildSandboxApp(config.app);
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'pac-sandbox shutting down');
    await app.close();
    await stopTracing();
    process.exitCode = 0;
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
