import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';
import { filesTaskQueue } from '@cfdi/temporal-contract';

/**
 * Renders a stamped document's files again (`cfdi files regenerate`): after their rendering failed for good, or when
 * an operator wants them re-rendered. Same activity, queue and retries as the stamp path's files step; its last
 * failed attempt marks the files `failed` again.
 */
export async function regenerateFilesWorkflow(documentId: string): Promise<void> {
  const files = proxyActivities<Activities>({
    taskQueue: filesTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });
  await files.generateDocumentFiles(documentId);
}
