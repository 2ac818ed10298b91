import type { Config } from '@cfdi/config';
import { metricsAccess, startProbeServer, type ProbeServer, type Registry } from '@cfdi/metrics';
import type { RunningWorkers } from './worker';

export interface WorkerHealthOptions {
  config: Readonly<Config>;
  workers: RunningWorkers;
  registry: Registry;
  /** The Temporal SDK's own Prometheus endpoint on loopback, appended to /metrics; null when not installed. */
  temporalMetricsUrl: string | null;
  /** True from SIGTERM on: /ready fails while activities in flight finish. */
  draining(): boolean;
}

const TEMPORAL_CHECK_MS = 2000;

/**
 * The worker's probe and metrics listener on WORKER_HEALTH_PORT. /live fails only when a worker stopped on an error
 * (a restart is what helps then); /ready needs every worker polling, Temporal answering within 2 s, and no
 * shutdown under way; /metrics is this process's registry followed by the Temporal SDK's worker metrics.
 */
export function startWorkerHealth(options: WorkerHealthOptions): Promise<ProbeServer> {
  const { config, workers } = options;
  const temporalReachable = () =>
    workers.connection
      .withDeadline(Date.now() + TEMPORAL_CHECK_MS, () =>
        workers.connection.workflowService.getSystemInfo({}),
      )
      .then(
        () => true,
        () => false,
      );
  return startProbeServer({
    host: config.workerHealth.host,
    port: config.workerHealth.port ?? 0,
    live: () => {
      const states = workers.states();
      return { ok: !Object.values(states).includes('FAILED'), checks: states };
    },
    ready: async () => {
      const states = workers.states();
      const polling = Object.values(states).every((state) => state === 'RUNNING');
      const temporal = await temporalReachable();
      const draining = options.draining();
      return { ok: polling && temporal && !draining, checks: { ...states, temporal, draining } };
    },
    access: (authorization) => metricsAccess(config, authorization),
    metrics: async () => {
      const own = await options.registry.metrics();
      if (!options.temporalMetricsUrl) return own;
      // The SDK's names (temporal_*) never clash with ours (cfdi_*, process_*, nodejs_*).
      const sdk = await fetch(options.temporalMetricsUrl, { signal: AbortSignal.timeout(2000) })
        .then((res) => (res.ok ? res.text() : ''))
        .catch(() => '');
      return `${own}\n${sdk}`;
    },
  });
}
