export { createMetricsRegistry } from './registry';
export { createHttpMetrics, type HttpMetrics } from './http';
export { createPacMetrics, type PacCall } from './pac';
export { createWorkerMetrics, type WorkerMetrics } from './worker';
export { createStampCounter } from './stamps';
export { createPlatformGauges, type PlatformNumbers } from './platform';
export { metricsAccess, type MetricsAccess } from './access';
export {
  startProbeServer,
  type ProbeReport,
  type ProbeServer,
  type ProbeServerOptions,
} from './probe-server';
export type { Registry } from 'prom-client';
