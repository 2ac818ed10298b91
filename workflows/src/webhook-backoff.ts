import type { WebhookRetryPolicy } from '@cfdi/temporal-contract';

/**
 * Delay before attempt `attempt + 1` (ms): exponential from `firstSeconds`, capped at `maxSeconds`, with ±20 %
 * jitter so endpoints recovering from an outage are not hit by every retry at the same instant. `random` in [0, 1)
 * (the workflow's deterministic Math.random).
 */
export function webhookRetryDelayMs(attempt: number, policy: WebhookRetryPolicy, random: number): number {
  const base = Math.min(policy.firstSeconds * 2 ** Math.max(0, attempt - 1), policy.maxSeconds) * 1000;
  return Math.round(base * (0.8 + 0.4 * random));
}
