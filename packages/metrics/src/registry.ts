import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

/**
 * One registry per process (tests build several apps in one process, each with its own): Node's runtime and process
 * metrics (`process_*`, `nodejs_*`: CPU, memory, heap, event-loop lag, GC, handles) plus whatever the app adds. No
 * label on every series names the app (Prometheus's `job` does); `cfdi_app_info{app}` is 1 while the process is
 * scraped, so "no worker left" is `absent(cfdi_app_info{app="worker"})` whatever the scrape jobs are called.
 */
export function createMetricsRegistry(app: 'api' | 'worker'): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'cfdi_app_info',
    help: 'Always 1: which platform process this is.',
    labelNames: ['app'],
    registers: [registry],
  }).set({ app }, 1);
  return registry;
}
