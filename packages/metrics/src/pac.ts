import { Histogram, type Registry } from 'prom-client';

/** One PAC call as packages/services' observed PAC clients report it (packages/pac knows nothing of metrics). */
export interface PacCall {
  /** The PacClient method: stamp, lookupStamped, cancel, satStatus, … */
  operation: string;
  /** The result's `outcome` (stamped, rejected, unavailable, ambiguous, …), or `error` when the call threw. */
  outcome: string;
  livemode: boolean;
  seconds: number;
}

/** The PAC latency histogram; its `_count` by outcome is the PAC's error rate. */
export function createPacMetrics(registry: Registry): (call: PacCall) => void {
  const duration = new Histogram({
    name: 'cfdi_pac_request_duration_seconds',
    help: 'PAC calls by operation, outcome and mode (live: the configured PAC; test: the sandbox PAC), and how long they took.',
    labelNames: ['operation', 'outcome', 'mode'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
    registers: [registry],
  });
  return ({ operation, outcome, livemode, seconds }) =>
    duration.observe({ operation, outcome, mode: livemode ? 'live' : 'test' }, seconds);
}
