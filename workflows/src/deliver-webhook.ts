import { proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';
import { webhookRetryDelayMs } from './webhook-backoff';
import type { WebhookDeliveryInput, WebhookDeliveryOutcome } from '@cfdi/temporal-contract';

// One attempt: a 10 s HTTP timeout plus the database writes. A local activity: no activity task goes through the
// server, so a delivery costs one workflow task rather than two plus an activity task (see bench/README.md,
// Webhooks). A worker killed mid-attempt loses its workflow task, which times out and replays on another worker,
// running the attempt again: at least once, never lost. A failure here is infrastructure (the database), not the
// receiver (whose answers come back as results), so it is retried until it works.
const { attemptWebhookDelivery } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * Delivers one event to one endpoint (workflow id from both), retrying failed attempts with exponential backoff
 * and jitter until a 2xx, a 410, the endpoint going away, or the retry window (3 days) running out. The dispatcher
 * makes most first attempts itself and starts this workflow only for those that failed (`firstAttemptAt`).
 */
export async function deliverWebhookWorkflow(
  input: WebhookDeliveryInput,
): Promise<{ outcome: WebhookDeliveryOutcome; attempts: number }> {
  const deadline = (input.firstAttemptAt ?? Date.now()) + input.retry.windowSeconds * 1000;
  for (let attempt = input.firstAttemptAt === undefined ? 1 : 2; ; attempt++) {
    if (attempt > 1) {
      const delay = webhookRetryDelayMs(attempt - 1, input.retry, Math.random());
      if (Date.now() + delay > deadline) return { outcome: 'expired', attempts: attempt - 1 };
      await sleep(delay);
    }
    const { outcome } = await attemptWebhookDelivery({
      eventId: input.eventId,
      endpointId: input.endpointId,
      redelivery: input.redelivery,
    });
    if (outcome !== 'failed') return { outcome, attempts: attempt };
  }
}
