import { Context } from '@temporalio/activity';
import {
  ALL_EVENTS,
  claimOutboxEvents,
  loadDeliveryTarget,
  loadDeliveryTargets,
  loadEvent,
  markDispatched,
  purgeExpiredEvents,
  recordDeliveryAttempt,
  recordSuccessfulAttempts,
  toEventView,
  type ClaimedEvents,
  type DeliveryAttempt,
  type DeliveryTarget,
  type DeliveryTask,
  type EventRow,
} from '@cfdi/services';
import { signWebhook, EVENT_ID_HEADER, SIGNATURE_HEADER } from '@cfdi/webhook-verify';
import type { Client } from '@temporalio/client';
import {
  startWebhookDelivery,
  webhookDeliveryWorkflowId,
  type WebhookAttemptResult,
  type WebhookDispatchInput,
} from '@cfdi/temporal-contract/client';
import type { ActivityDeps } from './deps';
import { postWebhook } from './webhook-http';

/** Events claimed per pass. */
const BATCH = 200;
/** Claimed batches whose deliveries are still in flight while the drain claims more (a hanging receiver holds one). */
const BATCHES_IN_FLIGHT = 4;
/** First attempts in flight at once per batch, and workflow starts at once. */
const CONCURRENCY = 16;
/** A first attempt not begun this long after its batch was claimed is left to a workflow instead. */
const FIRST_ATTEMPT_BUDGET_MS = 2_000;
/**
 * How long claimed events stay the dispatcher's: over twice what a batch takes (the 2 s budget, one receiver's 10 s
 * timeout, the records and the starts), so only a dead dispatcher's events are claimed again.
 */
const LEASE_SECONDS = 30;

/** Runs `work` over `items` with at most `limit` at once. */
async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function webhookActivities(deps: ActivityDeps) {
  const retry = () => ({
    firstSeconds: deps.config.webhooks.retryFirstSeconds,
    maxSeconds: deps.config.webhooks.retryMaxSeconds,
    windowSeconds: deps.config.webhooks.retryWindowSeconds,
  });

  /** Whether an attempt is due: the endpoint is live and (unless redelivering) still subscribed to the event. */
  const deliverable = (
    target: DeliveryTarget | undefined | null,
    event: EventRow,
    redelivery: boolean,
  ): target is DeliveryTarget =>
    !!target?.active &&
    (redelivery || target.enabledEvents.includes(event.type) || target.enabledEvents.includes(ALL_EVENTS));

  /** One signed POST of `body` (the event's view) to the target: the attempt, not yet recorded. */
  async function post(
    target: DeliveryTarget,
    event: EventRow,
    body: string,
    redelivery: boolean,
  ): Promise<DeliveryAttempt> {
    // The receiver's clock is the real one: signatures carry real time, whatever clock the platform was given.
    const headers = {
      'user-agent': 'CFDI-Webhooks/1',
      [SIGNATURE_HEADER]: signWebhook(body, target.secrets, Math.floor(Date.now() / 1000)),
      [EVENT_ID_HEADER]: event.id,
    };
    const result = await postWebhook(target.url, body, headers, target.livemode);
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    deps.observer?.webhookAttempt(
      succeeded ? 'delivered' : 'failed',
      redelivery ? null : (Date.now() - new Date(event.created_at).getTime()) / 1000,
    );
    return {
      ...result,
      eventId: event.id,
      endpointId: target.id,
      accountId: target.accountId,
      livemode: target.livemode,
      url: target.url,
      redelivery,
      succeeded,
    };
  }

  /** Records an attempt with what it means for the endpoint (a 410 or 3 days of failures disable it). */
  async function record(attempt: DeliveryAttempt): Promise<WebhookAttemptResult['outcome']> {
    const { disabled } = await recordDeliveryAttempt(
      deps.orm.em.fork(),
      attempt,
      deps.config.webhooks.retryWindowSeconds,
    );
    return attempt.succeeded ? 'delivered' : disabled ? 'endpoint_disabled' : 'failed';
  }

  /** Starts the retrying workflows (ids derived from event and endpoint: a repeated start is refused, not run). */
  async function startDeliveries(
    client: Client,
    deliveries: { task: DeliveryTask; firstAttemptAt?: number }[],
    taskQueue: string,
  ): Promise<void> {
    await forEachLimited(deliveries, CONCURRENCY, async ({ task, firstAttemptAt }) => {
      await startWebhookDelivery(
        client,
        {
          ...task,
          redelivery: false,
          retry: retry(),
          ...(firstAttemptAt === undefined ? {} : { firstAttemptAt }),
        },
        { taskQueue, workflowId: webhookDeliveryWorkflowId(task.eventId, task.endpointId) },
      );
    });
  }

  /**
   * Makes the first attempt of a claimed batch's deliveries; those that failed, could not begin within the budget
   * or were meant for workflows go to delivery workflows; then the events are marked dispatched. A crash anywhere
   * before that leaves the events leased: once the lease runs out they are dispatched again, through workflows only,
   * without the deliveries recorded as succeeded.
   */
  async function dispatchClaimed(client: Client, claimed: ClaimedEvents, taskQueue: string): Promise<void> {
    const claimedAt = Date.now();
    const events = new Map(claimed.events.map((e) => [e.id, e]));
    // Serialized once for all of an event's endpoints.
    const bodies = new Map(claimed.events.map((e) => [e.id, JSON.stringify(toEventView(e))]));
    const targets = await loadDeliveryTargets(
      deps.orm.em.fork(),
      deps.config.masterKey,
      [...new Set(claimed.firstAttempts.map((t) => t.endpointId))],
      new Date(),
    );
    const toWorkflows: { task: DeliveryTask; firstAttemptAt?: number }[] = claimed.toWorkflows.map(
      (task) => ({ task }),
    );
    const delivered: DeliveryAttempt[] = [];
    await forEachLimited(claimed.firstAttempts, CONCURRENCY, async (task) => {
      if (Date.now() - claimedAt > FIRST_ATTEMPT_BUDGET_MS) return void toWorkflows.push({ task });
      const event = events.get(task.eventId)!;
      const target = targets.get(task.endpointId);
      if (!deliverable(target, event, false)) return;
      const firstAttemptAt = Date.now();
      const made = await post(target, event, bodies.get(event.id)!, false);
      // Successes are recorded together once the batch's attempts are over (one commit); a failure now, since it may
      // disable the endpoint.
      if (made.succeeded) delivered.push(made);
      else if ((await record(made)) === 'failed') toWorkflows.push({ task, firstAttemptAt });
    });
    // Recorded before the starts, so a Temporal outage failing them does not make the next claim deliver these again.
    await recordSuccessfulAttempts(deps.orm.em.fork(), delivered);
    await startDeliveries(client, toWorkflows, taskQueue);
    await markDispatched(
      deps.orm.em.fork(),
      claimed.events.map((e) => e.id),
    );
  }

  return {
    /**
     * Delivers outbox events for `runForMs`, claiming again at once after a full batch and every `intervalMs`
     * otherwise, with up to BATCHES_IN_FLIGHT batches delivering at once; also purges events past their retention.
     * Safe to repeat: claims are leased, deliveries have derived ids.
     */
    async drainOutbox(input: WebhookDispatchInput & { taskQueue: string }): Promise<{ events: number }> {
      const context = Context.current();
      const until = Date.now() + input.runForMs;
      const inFlight = new Set<Promise<void>>();
      // A batch that failed (the database, Temporal) fails the drain, which is retried; its events stay leased.
      const failures: unknown[] = [];
      let events = 0;
      await purgeExpiredEvents(deps.orm.em.fork(), input.eventRetentionDays);
      try {
        while (Date.now() < until) {
          if (failures.length) throw failures[0];
          if (inFlight.size >= BATCHES_IN_FLIGHT) {
            // Like the sleep below, stops waiting when the activity is cancelled; `finally` lets the batches finish.
            await Promise.race([...inFlight, context.cancelled]);
            continue;
          }
          const claimed = await claimOutboxEvents(deps.orm.em.fork(), BATCH, LEASE_SECONDS);
          if (claimed) {
            const delivering: Promise<void> = dispatchClaimed(context.client, claimed, input.taskQueue)
              .catch((error: unknown) => void failures.push(error))
              .finally(() => inFlight.delete(delivering));
            inFlight.add(delivering);
            events += claimed.events.length;
          }
          context.heartbeat(events);
          // Rejects when the activity is cancelled (worker shutting down), so a stopping worker is not held up.
          if ((claimed?.events.length ?? 0) < BATCH) await context.sleep(input.intervalMs);
        }
      } finally {
        await Promise.all(inFlight);
      }
      if (failures.length) throw failures[0];
      return { events };
    },

    /**
     * One HTTP attempt of an event to an endpoint (a delivery workflow's), recorded with its outcome. Repeatable: a
     * repeat is another attempt (at-least-once; receivers de-duplicate by CFDI-Event-Id).
     */
    async attemptWebhookDelivery(input: {
      eventId: string;
      endpointId: string;
      redelivery: boolean;
    }): Promise<WebhookAttemptResult> {
      const em = deps.orm.em.fork();
      const [target, event] = await Promise.all([
        loadDeliveryTarget(em, deps.config.masterKey, input.endpointId, new Date()),
        loadEvent(em, input.eventId),
      ]);
      if (!event || !deliverable(target, event, input.redelivery)) return { outcome: 'skipped' };
      return {
        outcome: await record(
          await post(target, event, JSON.stringify(toEventView(event)), input.redelivery),
        ),
      };
    },
  };
}
