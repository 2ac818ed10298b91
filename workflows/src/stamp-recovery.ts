import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '@cfdi/activities';

// Starting a workflow that already runs is refused and counted as such: retrying the whole sweep is harmless.
const { resumeStalledStamps } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

/**
 * Periodic sweep (a Temporal Schedule): every accepted document gets its stamp workflow, even when the API died or
 * Temporal was unreachable between accepting it and starting the workflow. The workflows run on this queue.
 */
export async function stampRecoveryWorkflow(): Promise<{ checked: number; started: number }> {
  const report = await resumeStalledStamps(workflowInfo().taskQueue);
  if (report.started.length) log.warn('started the stamp workflow of documents left without one', { documents: report.started });
  return { checked: report.checked, started: report.started.length };
}
