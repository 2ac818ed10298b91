import { Counter, type Registry } from 'prom-client';

/**
 * `cfdi_stamps_total{outcome}`: the stamp outcomes this process recorded. The API records the stamps it makes itself,
 * the worker those its workflows make; a dashboard sums both.
 */
export function createStampCounter(registry: Registry): (outcome: string) => void {
  const stamps = new Counter({
    name: 'cfdi_stamps_total',
    help: 'Stamp outcomes recorded by this process: stamped, failed (refunded), reconciling (awaits reconciliation).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return (outcome) => stamps.inc({ outcome });
}
