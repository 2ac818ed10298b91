import { Counter, Histogram, type Registry } from 'prom-client';
import { createStampCounter } from './stamps';

/** What the worker's activities report: stamp outcomes and webhook deliveries. */
export interface WorkerMetrics {
  /** A stamp's recorded outcome: stamped, failed (refunded), reconciling. */
  stampRecorded(outcome: string): void;
  /** A delivery attempt (delivered, failed); `lagSeconds` from the event's creation, null for a redelivery. */
  webhookAttempt(outcome: string, lagSeconds: number | null): void;
}

export function createWorkerMetrics(registry: Registry): WorkerMetrics {
  const deliveries = new Counter({
    name: 'cfdi_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, failed (retried with backoff).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'cfdi_webhook_delivery_lag_seconds',
    help: 'Seconds from an event to its successful delivery to an endpoint (redeliveries left out).',
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
    registers: [registry],
  });
  return {
    stampRecorded: createStampCounter(registry),
    webhookAttempt(outcome, lagSeconds) {
      deliveries.inc({ outcome });
      if (outcome === 'delivered' && lagSeconds !== null) lag.observe(Math.max(0, lagSeconds));
    },
  };
}
