import fs from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Config } from '@cfdi/config';
import { createActivities, type ActivityDeps } from '@cfdi/activities';
import { filesTaskQueue } from '@cfdi/workflows/client';

export interface RunningWorkers {
  /** Resolves when both workers have stopped. */
  run(): Promise<void>;
  shutdown(): void;
  connection: NativeConnection;
}

/**
 * The platform's workers on a task queue (tests use their own): one runs the workflows and their activities; the
 * other renders document files on `<queue>-files` with bounded concurrency, so PDF rendering drains behind the
 * stamps instead of taking the CPU the synchronous stamping path needs.
 */
/**
 * Started from dist/, the worker loads the workflow bundle its build wrote beside it; from sources (`npm run up`,
 * tests) there is none, and Temporal bundles the workflows at start.
 */
function workflowSource(): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  const prebuilt = path.join(__dirname, 'workflow-bundle.js');
  return fs.existsSync(prebuilt) ? { workflowBundle: { codePath: prebuilt } } : { workflowsPath: require.resolve('@cfdi/workflows') };
}

export async function createWorker(config: Readonly<Config>, deps: ActivityDeps, options: { taskQueue?: string } = {}): Promise<RunningWorkers> {
  const taskQueue = options.taskQueue ?? config.temporal.taskQueue;
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const activities = createActivities(deps);
  const common = { connection, namespace: config.temporal.namespace };
  const stamping = await Worker.create({ ...common, taskQueue, ...workflowSource(), activities });
  const files = await Worker.create({
    ...common,
    taskQueue: filesTaskQueue(taskQueue),
    activities: { generateDocumentFiles: activities.generateDocumentFiles },
    maxConcurrentActivityTaskExecutions: config.filesConcurrency,
  });
  return {
    connection,
    run: async () => {
      await Promise.all([stamping.run(), files.run()]);
    },
    shutdown: () => {
      stamping.shutdown();
      files.shutdown();
    },
  };
}
