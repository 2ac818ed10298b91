// The API as apps/api/src/server.ts starts it, plus an event-loop watch the fuzzer reads over IPC: `mark` starts a
// window before a request, `read` answers the longest delay in that window and the run's p99 (milliseconds).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '@cfdi/config';
import { buildApp } from '@cfdi/api';
import { createAppDeps } from '@cfdi/api/src/deps';

export interface LoopReading {
  maxMs: number;
  p99Ms: number;
  samples: number;
}

async function main(): Promise<void> {
  const whole = monitorEventLoopDelay({ resolution: 10 });
  const window = monitorEventLoopDelay({ resolution: 10 });
  whole.enable();
  window.enable();
  const config = loadConfig();
  const deps = await createAppDeps(config);
  const app = await buildApp(deps);
  await app.listen({ host: config.api.host, port: config.api.port });
  process.on('message', (message: { type: string; id: number }) => {
    if (message.type === 'mark') {
      window.reset();
      whole.enable();
      process.send?.({ id: message.id });
    } else if (message.type === 'read') {
      const reading: LoopReading = {
        maxMs: window.max / 1e6,
        p99Ms: whole.percentile(99) / 1e6,
        samples: whole.count,
      };
      process.send?.({ id: message.id, reading });
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
