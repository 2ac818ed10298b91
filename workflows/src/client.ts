import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { LEDGER_AUDIT_SCHEDULE_ID, TASK_QUEUE } from './names';

export * from './names';

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
