import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '@cfdi/activities';
import type { WebhookDispatchInput } from './webhook-types';

// The drain heartbeats every pass: a dead worker is noticed within the heartbeat timeout and the drain resumes on
// another one. It only ever starts idempotent deliveries, so running it again is harmless.
const { drainOutbox } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds' },
});

/**
 * One run of the outbox dispatcher (started back to back by a Schedule): reads undispatched events and starts one
 * delivery workflow per (event, subscribed endpoint) on the webhooks queue, for `runForMs`.
 */
export async function dispatchWebhooksWorkflow(input: WebhookDispatchInput): Promise<{ events: number }> {
  return drainOutbox({ ...input, taskQueue: workflowInfo().taskQueue });
}
