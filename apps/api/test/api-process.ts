// An API in its own process, so a test can SIGKILL it mid-stamp. Started with `node --import tsx` (one process).
// Clock from TEST_CLOCK_START; port from API_PORT.
import { loadConfig } from '@cfdi/config';
import { buildApp } from '../src/app';
import { createAppDeps } from '../src/deps';

async function main(): Promise<void> {
  const config = loadConfig();
  const offset = Number(process.env.TEST_CLOCK_START) - Date.now();
  const deps = await createAppDeps(config, { now: () => new Date(Date.now() + offset) });
  const app = await buildApp(deps, { logger: false });
  await app.listen({ host: '127.0.0.1', port: config.api.port });
  process.stdout.write('api ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
