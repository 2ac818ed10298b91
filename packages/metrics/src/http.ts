import { Histogram, type Registry } from 'prom-client';

/** RED metrics of an HTTP server: one histogram gives the rate, the errors (by status class) and the durations. */
export interface HttpMetrics {
  /** `route` is the route's template (`/v1/invoices/:id`), never the raw path: ids would explode the series. */
  observe(request: { method: string; route: string | undefined; statusCode: number; seconds: number }): void;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  const duration = new Histogram({
    name: 'cfdi_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status class (2xx, 4xx, 5xx…), and how long they took.',
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    observe({ method, route, statusCode, seconds }) {
      duration.observe(
        // Unmatched paths (404s, scanners) share one series.
        { method, route: route ?? 'unmatched', status_class: `${Math.floor(statusCode / 100)}xx` },
        seconds,
      );
    },
  };
}
