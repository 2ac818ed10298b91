import { Context } from '@temporalio/activity';
import {
  ALL_EVENTS, dispatchOutboxBatch, loadDeliveryTarget, loadEvent, purgeExpiredEvents, recordDeliveryAttempt, toEventView, type DeliveryTask,
} from '@cfdi/services';
import { signWebhook, EVENT_ID_HEADER, SIGNATURE_HEADER } from '@cfdi/webhook-verify';
// Not declared in package.json: @cfdi/workflows declares this package (for its activity types), and turbo refuses cycles.
import { startWebhookDelivery, webhookDeliveryWorkflowId, type WebhookAttemptResult, type WebhookDispatchInput } from '@cfdi/workflows/client';
import type { ActivityDeps } from './deps';
import { postWebhook } from './webhook-http';

/** Events claimed per transaction. */
const BATCH = 200;
/** Workflow starts in flight at once while dispatching a batch. */
const START_CONCURRENCY = 16;

export function webhookActivities(deps: ActivityDeps) {
  const retry = () => ({
    firstSeconds: deps.config.webhooks.retryFirstSeconds,
    maxSeconds: deps.config.webhooks.retryMaxSeconds,
    windowSeconds: deps.config.webhooks.retryWindowSeconds,
  });

  async function startDeliveries(tasks: DeliveryTask[], taskQueue: string): Promise<void> {
    const client = Context.current().client;
    for (let i = 0; i < tasks.length; i += START_CONCURRENCY) {
      await Promise.all(tasks.slice(i, i + START_CONCURRENCY).map((task) => startWebhookDelivery(client,
        { ...task, redelivery: false, retry: retry() },
        { taskQueue, workflowId: webhookDeliveryWorkflowId(task.eventId, task.endpointId) })));
    }
  }

  return {
    /**
     * Moves outbox events into delivery workflows for `runForMs`, reading again at once after a full batch and every
     * `intervalMs` otherwise; also purges events past their retention. Safe to repeat: deliveries have derived ids.
     */
    async drainOutbox(input: WebhookDispatchInput & { taskQueue: string }): Promise<{ events: number }> {
      const context = Context.current();
      const until = Date.now() + input.runForMs;
      let events = 0;
      await purgeExpiredEvents(deps.orm.em.fork(), input.eventRetentionDays);
      while (Date.now() < until) {
        const claimed = await dispatchOutboxBatch(deps.orm.em.fork(), BATCH, (tasks) => startDeliveries(tasks, input.taskQueue));
        events += claimed;
        context.heartbeat(events);
        // Rejects when the activity is cancelled (worker shutting down), so a stopping worker is not held up.
        if (claimed < BATCH) await context.sleep(input.intervalMs);
      }
      return { events };
    },

    /**
     * One HTTP attempt of an event to an endpoint, recorded with its outcome. Repeatable: a repeat is another
     * attempt (at-least-once; receivers de-duplicate by CFDI-Event-Id).
     */
    async attemptWebhookDelivery(input: { eventId: string; endpointId: string; redelivery: boolean }): Promise<WebhookAttemptResult> {
      const em = deps.orm.em.fork();
      const [target, event] = await Promise.all([
        loadDeliveryTarget(em, deps.config.masterKey, input.endpointId, new Date()),
        loadEvent(em, input.eventId),
      ]);
      if (!target?.active || !event) return { outcome: 'skipped' };
      const subscribed = target.enabledEvents.includes(event.type) || target.enabledEvents.includes(ALL_EVENTS);
      if (!subscribed && !input.redelivery) return { outcome: 'skipped' };
      const body = JSON.stringify(toEventView(event));
      // The receiver's clock is the real one: signatures carry real time, whatever clock the platform was given.
      const headers = {
        'user-agent': 'CFDI-Webhooks/1',
        [SIGNATURE_HEADER]: signWebhook(body, target.secrets, Math.floor(Date.now() / 1000)),
        [EVENT_ID_HEADER]: event.id,
      };
      const result = await postWebhook(target.url, body, headers, target.livemode);
      const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const { disabled } = await recordDeliveryAttempt(em, {
        ...result, eventId: event.id, endpointId: target.id, accountId: target.accountId, livemode: target.livemode, url: target.url,
        redelivery: input.redelivery, succeeded,
      }, deps.config.webhooks.retryWindowSeconds);
      return { outcome: succeeded ? 'delivered' : disabled ? 'endpoint_disabled' : 'failed' };
    },
  };
}
