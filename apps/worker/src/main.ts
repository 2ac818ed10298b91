import './tracing';
import './heap-growth';
import net from 'node:net';
import { Runtime } from '@temporalio/worker';
import { loadConfig } from '@cfdi/config';
import { stopTracing } from '@cfdi/telemetry';
import { createMetricsRegistry, createPacMetrics, createWorkerMetrics } from '@cfdi/metrics';
import {
  ensureGlobalInvoiceSchedulesSync,
  ensureLedgerAuditSchedule,
  ensureResumeStalledSchedule,
  ensureWebhookDispatchSchedule,
} from '@cfdi/temporal-contract/client';
import { createWorkerDeps } from './deps';
import { startWorkerHealth } from './health';
import { createWorker, webhookDispatchInput } from './worker';

/** A free loopback port for the Temporal SDK's metrics exporter (only this process reads it). */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The Temporal worker: runs every workflow and activity of the platform on the stamping task queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const registry = createMetricsRegistry('worker');
  // The SDK's worker metrics (task slots, poll and schedule-to-start latencies, failures) are exported by its Rust
  // core on a loopback port and served through this process's /metrics, behind the same token.
  let temporalMetricsUrl: string | null = null;
  if (config.workerHealth.port !== null) {
    const port = await freeLoopbackPort();
    Runtime.install({
      telemetryOptions: {
        metrics: {
          prometheus: {
            bindAddress: `127.0.0.1:${port}`,
            countersTotalSuffix: true,
            unitSuffix: true,
            useSecondsForDurations: true,
          },
        },
      },
    });
    temporalMetricsUrl = `http://127.0.0.1:${port}/metrics`;
  }
  const deps = await createWorkerDeps(config, undefined, {
    pac: createPacMetrics(registry),
    activities: createWorkerMetrics(registry),
  });
  const workers = await createWorker(config, deps);
  let draining = false;
  const health =
    config.workerHealth.port === null
      ? null
      : await startWorkerHealth({ config, workers, registry, temporalMetricsUrl, draining: () => draining });

  await ensureLedgerAuditSchedule(deps.temporal, config.temporal.taskQueue);
  await ensureResumeStalledSchedule(deps.temporal, config.temporal.taskQueue);
  await ensureWebhookDispatchSchedule(deps.temporal, config.temporal.taskQueue, webhookDispatchInput(config));
  // Its first run at once: a merchant's global-invoice Schedule lost with a Temporal reset is back at start-up.
  await ensureGlobalInvoiceSchedulesSync(deps.temporal, config.temporal.taskQueue);

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      draining = true;
      workers.shutdown();
    });
  await workers.run();
  await deps.close();
  await health?.close();
  await workers.connection.close();
  await stopTracing();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
