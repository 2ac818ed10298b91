import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities, SendEmailInput } from '@cfdi/temporal-contract';

// One SMTP attempt (connect, send the attachments, record). Its answer comes back as a value; what throws is
// infrastructure (the database, a PDF still rendering), retried until it works without counting as an SMTP attempt.
const { attemptEmailDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** Delay before attempt `attempt + 1` (ms): doubling from `firstSeconds`, capped at `maxSeconds`. */
export function emailRetryDelayMs(attempt: number, retry: SendEmailInput['retry']): number {
  return Math.min(retry.firstSeconds * 2 ** (attempt - 1), retry.maxSeconds) * 1000;
}

/**
 * Sends one e-mail delivery: attempts until the SMTP server takes it, refuses it for good (5xx), or the attempts run
 * out while it fails temporarily (4xx, unreachable), with a durable timer between attempts. The delivery row holds
 * the outcome and the SMTP answer; the last attempt's recording emits `email.sent` or `email.failed`.
 */
export async function sendEmailWorkflow(
  input: SendEmailInput,
): Promise<{ status: 'queued' | 'sent' | 'failed'; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const result = await attemptEmailDelivery({
      deliveryId: input.deliveryId,
      finalAttempt: attempt >= input.retry.maxAttempts,
    });
    if (!result.retry) return { status: result.status, attempts: attempt };
    await sleep(emailRetryDelayMs(attempt, input.retry));
  }
}
