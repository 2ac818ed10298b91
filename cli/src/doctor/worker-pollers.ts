import type { Config } from '@cfdi/config';
import type { CheckResult } from '@cfdi/devstack';
import { filesTaskQueue, webhooksTaskQueue } from '@cfdi/temporal-contract/client';

/**
 * A poller seen more recently than this is taken as alive: a worker's long poll lasts at most a minute, then it
 * polls again, while Temporal lists a poller for minutes after it is gone.
 */
const LIVE_POLLER_MS = 90_000;

const QUEUE_TYPES = [
  ['workflow', 1],
  ['activity', 2],
] as const;

/**
 * Is a worker polling? Temporal's DescribeTaskQueue on each of the platform's task queues (stamping, files,
 * webhooks), for workflow and activity tasks alike: a queue nobody polls takes stamps that never finish.
 */
export async function checkWorkerPollers(config: Pick<Config, 'temporal'>): Promise<CheckResult> {
  const { Connection } = require('@temporalio/client') as typeof import('@temporalio/client');
  const { address, namespace, taskQueue } = config.temporal;
  const queues = [taskQueue, filesTaskQueue(taskQueue), webhooksTaskQueue(taskQueue)];
  const fix = 'Start the worker: `npm run up` starts it (production: `node apps/worker/dist/main.js`).';
  try {
    const connection = await Connection.connect({ address, connectTimeout: 3000 });
    try {
      const unpolled: string[] = [];
      const workers = new Set<string>();
      for (const name of queues)
        for (const [type, taskQueueType] of QUEUE_TYPES) {
          // The stamping and webhook queues run workflows and activities; files only activities.
          if (type === 'workflow' && name === filesTaskQueue(taskQueue)) continue;
          const { pollers } = await connection.workflowService.describeTaskQueue({
            namespace,
            taskQueue: { name, kind: 1 },
            taskQueueType,
          });
          const live = (pollers ?? []).filter(
            (p) => Date.now() - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < LIVE_POLLER_MS,
          );
          for (const poller of live) if (poller.identity) workers.add(poller.identity);
          if (!live.length) unpolled.push(`${name} (${type})`);
        }
      return unpolled.length
        ? { name: 'worker', ok: false, detail: `no worker polls ${unpolled.join(', ')}`, fix }
        : { name: 'worker', ok: true, detail: `polling ${queues.join(', ')}: ${[...workers].join(', ')}` };
    } finally {
      await connection.close();
    }
  } catch (error) {
    return { name: 'worker', ok: false, detail: `${address}: ${(error as Error).message}`, fix };
  }
}
