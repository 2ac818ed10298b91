import { NativeConnection, Worker } from '@temporalio/worker';
import type { Config } from '@cfdi/config';
import { createActivities, type ActivityDeps } from '@cfdi/activities';

/** A worker for the platform's workflows and activities on the given task queue (tests use their own queue). */
export async function createWorker(config: Readonly<Config>, deps: ActivityDeps, options: { taskQueue?: string } = {}) {
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: options.taskQueue ?? config.temporal.taskQueue,
    workflowsPath: require.resolve('@cfdi/workflows'),
    activities: createActivities(deps),
  });
  return { worker, connection };
}
