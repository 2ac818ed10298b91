import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';

// Starting a workflow that already runs is refused and counted as such: retrying the whole sweep is harmless.
const { resumeStalledDocuments } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

/**
 * Periodic sweep (a Temporal Schedule): every stamp, cancellation and e-mail the API accepted gets its workflow, even when
 * the API died or Temporal was unreachable between accepting it and starting the workflow. They run on this queue.
 */
export async function resumeStalledWorkflow(): Promise<{ checked: number; resumed: number }> {
  const report = await resumeStalledDocuments(workflowInfo().taskQueue);
  const emails = report.emailsResumed ?? [];
  if (report.resumed.length || emails.length)
    log.warn('started the workflow of accepted work left without one', { resumed: report.resumed, emails });
  return { checked: report.checked, resumed: report.resumed.length + emails.length };
}
