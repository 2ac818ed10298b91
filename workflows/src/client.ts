import { ScheduleOverlapPolicy, WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import type { stampDocumentWorkflow } from './stamp-document';
import { LEDGER_AUDIT_SCHEDULE_ID, resolveReconciliationSignal, stampOutcomeUpdate, stampWorkflowId, TASK_QUEUE } from './names';
import type { OperatorResolution, StampOutcome, StampWorkflowInput } from './stamp-types';

export * from './names';
export type * from './stamp-types';

/** Creates the ledger-audit schedule once; an existing schedule is left as it is (idempotent). */
export async function ensureLedgerAuditSchedule(client: Client, taskQueue: string = TASK_QUEUE, every = '15 minutes'): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: LEDGER_AUDIT_SCHEDULE_ID,
      spec: { intervals: [{ every }] },
      action: { type: 'startWorkflow', workflowType: 'ledgerAuditWorkflow', taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
  } catch (error) {
    if ((error as Error).name !== 'ScheduleAlreadyRunning') throw error;
  }
}

/**
 * Starts the stamp workflow of a document (or attaches to the running one: the id derives from the document, so
 * "already started" is success) and waits up to `waitMs` for its outcome. `null` means the wait ran out; the
 * workflow goes on by itself. The start is awaited before waiting, so a timeout never leaves a document unstarted.
 */
export async function startStamping(client: Client, input: StampWorkflowInput, options: { taskQueue: string; waitMs: number }): Promise<StampOutcome | null> {
  const handle = await client.workflow.start<typeof stampDocumentWorkflow>('stampDocumentWorkflow', {
    workflowId: stampWorkflowId(input.documentId),
    taskQueue: options.taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
  if (options.waitMs <= 0) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.waitMs);
  try {
    return await client.withAbortSignal(controller.signal, () => handle.executeUpdate(stampOutcomeUpdate));
  } catch (error) {
    if (controller.signal.aborted) return null;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Delivers an operator's reconciliation decision to the document's stamp workflow. */
export async function signalReconciliation(client: Client, documentId: string, resolution: OperatorResolution): Promise<void> {
  await client.workflow.getHandle(stampWorkflowId(documentId)).signal(resolveReconciliationSignal, resolution);
}
