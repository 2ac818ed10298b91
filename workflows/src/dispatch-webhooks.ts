import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';
import type { WebhookDispatchInput } from '@cfdi/temporal-contract';

// The drain heartbeats every pass: a dead worker is noticed within the heartbeat timeout and the drain resumes on
// another one, where the events the dead one had leased are dispatched again once the lease runs out.
const { drainOutbox } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds' },
});

/**
 * One run of the outbox dispatcher (started back to back by a Schedule): for `runForMs`, claims undispatched events
 * and makes the first attempt of each (event, subscribed endpoint) delivery, starting a delivery workflow on the
 * webhooks queue for those that need retries.
 */
export async function dispatchWebhooksWorkflow(input: WebhookDispatchInput): Promise<{ events: number }> {
  return drainOutbox({ ...input, taskQueue: workflowInfo().taskQueue });
}
