/** Retry schedule of a delivery (config WEBHOOK_RETRY_*), passed in so the workflow reads no environment. */
export interface WebhookRetryPolicy {
  firstSeconds: number;
  maxSeconds: number;
  /** No attempt starts later than this after the first one. */
  windowSeconds: number;
}

export interface WebhookDeliveryInput {
  eventId: string;
  endpointId: string;
  redelivery: boolean;
  retry: WebhookRetryPolicy;
  /**
   * When the dispatcher already made the first attempt (and it failed): the workflow starts with the retry after it,
   * and the retry window counts from it (epoch ms). Absent, the workflow makes the first attempt at once.
   */
  firstAttemptAt?: number;
}

/**
 * `delivered`: a 2xx. `endpoint_disabled`: 410 Gone, or failing for the whole window. `skipped`: the endpoint was
 * deleted, disabled or unsubscribed, or the event purged, before an attempt. `expired`: the retry window ran out.
 */
export type WebhookDeliveryOutcome = 'delivered' | 'endpoint_disabled' | 'skipped' | 'expired';

export interface WebhookAttemptResult {
  outcome: 'delivered' | 'failed' | 'endpoint_disabled' | 'skipped';
}

export interface WebhookDispatchInput {
  /** How long one dispatcher run drains the outbox before the Schedule starts the next. */
  runForMs: number;
  intervalMs: number;
  eventRetentionDays: number;
}
