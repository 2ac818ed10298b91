import fs from 'node:fs';
import path from 'node:path';
import {
  bundleWorkflowCode,
  NativeConnection,
  Runtime,
  Worker,
  type State,
  type WorkerOptions,
} from '@temporalio/worker';
import type { Config } from '@cfdi/config';
import { createActivities, type ActivityDeps } from '@cfdi/activities';
import { workerTracing, workflowTracingModules } from '@cfdi/telemetry/worker';
import { filesTaskQueue, webhooksTaskQueue, type WebhookDispatchInput } from '@cfdi/temporal-contract/client';

export interface RunningWorkers {
  /** Resolves when every worker has stopped. */
  run(): Promise<void>;
  shutdown(): void;
  /** Each worker's state (RUNNING once its pollers run; FAILED when it stopped on an error). */
  states(): Record<'stamping' | 'files' | 'webhooks', State>;
  connection: NativeConnection;
}

/**
 * On SIGTERM, activities in flight get this long to finish before they are cancelled: a PAC call cut short after
 * sending would leave an ambiguous outcome to reconcile.
 */
const SHUTDOWN_GRACE = '10s';

/**
 * Started from dist/, the worker loads the workflow bundle its build wrote beside it; from sources (`npm run up`,
 * tests) there is none, and the workflows are bundled once at start for the two workers that run them (bundling
 * costs seconds of CPU). A worker that traces runs the bundle with the tracing interceptors in it (the build writes
 * both), so one that does not runs no tracing code in its workflows.
 */
async function workflowBundle(
  traced: boolean,
  untracedBundlePath?: string,
): Promise<NonNullable<WorkerOptions['workflowBundle']>> {
  if (untracedBundlePath && !traced) return { codePath: untracedBundlePath };
  const prebuilt = path.join(__dirname, traced ? 'workflow-bundle-traced.js' : 'workflow-bundle.js');
  if (fs.existsSync(prebuilt)) return { codePath: prebuilt };
  return bundleWorkflowCode({
    workflowsPath: require.resolve('@cfdi/workflows'),
    workflowInterceptorModules: traced ? workflowTracingModules() : [],
    logger: Runtime.instance().logger,
  });
}

/**
 * The platform's workers on a task queue (tests use their own): one runs the workflows and their activities; one
 * renders document files on `<queue>-files` with bounded concurrency, so PDF rendering drains behind the stamps
 * instead of taking the CPU the synchronous stamping path needs; one runs the webhook dispatcher and deliveries on
 * `<queue>-webhooks`, so receivers that hang or fail never take the stamping queue's slots; e-mails are sent there
 * too (SMTP waits, like a webhook's).
 */
export async function createWorker(
  config: Readonly<Config>,
  deps: ActivityDeps,
  /** `workflowBundlePath`: a bundle of the workflows without tracing, made once for many workers (the tests'). */
  options: { taskQueue?: string; workflowBundlePath?: string } = {},
): Promise<RunningWorkers> {
  const taskQueue = options.taskQueue ?? config.temporal.taskQueue;
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const activities = createActivities(deps);
  const tracing = workerTracing();
  const common = {
    connection,
    namespace: config.temporal.namespace,
    shutdownGraceTime: SHUTDOWN_GRACE,
    ...(tracing ?? {}),
  };
  const bundle = await workflowBundle(tracing !== null, options.workflowBundlePath);
  const stamping = await Worker.create({ ...common, taskQueue, workflowBundle: bundle, activities });
  const files = await Worker.create({
    ...common,
    taskQueue: filesTaskQueue(taskQueue),
    activities: { generateDocumentFiles: activities.generateDocumentFiles },
    maxConcurrentActivityTaskExecutions: config.filesConcurrency,
  });
  const webhooks = await Worker.create({
    ...common,
    taskQueue: webhooksTaskQueue(taskQueue),
    workflowBundle: bundle,
    activities: {
      drainOutbox: activities.drainOutbox,
      attemptWebhookDelivery: activities.attemptWebhookDelivery,
      attemptEmailDelivery: activities.attemptEmailDelivery,
    },
    // HTTP waits, not CPU; plus the dispatcher's long-running drain.
    maxConcurrentActivityTaskExecutions: config.webhooks.deliveryConcurrency + 1,
  });
  return {
    connection,
    run: async () => {
      await Promise.all([stamping.run(), files.run(), webhooks.run()]);
    },
    states: () => ({ stamping: stamping.getState(), files: files.getState(), webhooks: webhooks.getState() }),
    shutdown: () => {
      stamping.shutdown();
      files.shutdown();
      webhooks.shutdown();
    },
  };
}

/** What each run of the webhook dispatcher is given (a run drains for a minute; the Schedule starts the next). */
export function webhookDispatchInput(config: Readonly<Config>): WebhookDispatchInput {
  return {
    runForMs: 60_000,
    intervalMs: config.webhooks.dispatchIntervalMs,
    eventRetentionDays: config.webhooks.eventRetentionDays,
  };
}
