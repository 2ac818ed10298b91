import {
  executeChild,
  log,
  ParentClosePolicy,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { globalInvoiceWorkflowId, stampWorkflowId } from '@cfdi/temporal-contract';
import type {
  Activities,
  GlobalInvoiceInput,
  GlobalInvoiceOutcome,
  GlobalScheduleSyncReport,
  StampDocumentWorkflow,
  StampOutcome,
} from '@cfdi/temporal-contract';

// Creating the period's document is idempotent (the period's row is claimed in its transaction), so it is retried
// freely; a refusal that no retry changes (no CSD, no balance, an invalid document) is thrown non-retryable by the
// activity and ends the run: the next day's scheduled run tries the period again.
const db = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// The sync talks to Temporal about every merchant with a global invoice: bounded, retried a few times, and the next
// run ten minutes later does it again anyway.
const schedules = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
});

/**
 * One period's global invoice of one merchant, exactly once: the document is created over the period's open receipts
 * (marked in_global in its transaction) or found when an earlier run made it, then stamped by its stamp workflow.
 * Re-run, retried or joined, it never stores or stamps a second document for the period.
 */
export async function globalInvoiceWorkflow(input: GlobalInvoiceInput): Promise<GlobalInvoiceOutcome> {
  const { reconciliation, ...run } = input;
  const { documentId } = await db.createGlobalInvoice(run);
  if (!documentId) return { documentId: null };
  return { documentId, outcome: await stampOf(documentId, reconciliation) };
}

/**
 * The stamp of the period's document by its own workflow (the one every document has, id from the document). When
 * that workflow already runs (the resume-stalled sweep started it after a crash), the outcome is read from the
 * document until it is recorded.
 */
async function stampOf(
  documentId: string,
  reconciliation: GlobalInvoiceInput['reconciliation'],
): Promise<StampOutcome> {
  try {
    return await executeChild<StampDocumentWorkflow>('stampDocumentWorkflow', {
      workflowId: stampWorkflowId(documentId),
      args: [{ documentId, reconciliation }],
      // The stamp goes on whatever happens to this run: a document with its timbre reserved is always finished.
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    for (;;) {
      const outcome = await db.currentStampOutcome(documentId);
      if (outcome) return outcome;
      await sleep('5 seconds');
    }
  }
}

/**
 * A merchant's Schedule runs this daily: the global invoice of each period that became due (see dueGlobalPeriods),
 * each as its own globalInvoiceWorkflow, whose id makes a period run once however often this runs.
 */
export async function merchantGlobalInvoicesWorkflow(merchantId: string): Promise<{ periods: string[] }> {
  const periods: string[] = [];
  for (const input of await db.dueGlobalInvoices(merchantId)) {
    try {
      await executeChild(globalInvoiceWorkflow, {
        workflowId: globalInvoiceWorkflowId(input),
        args: [input],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (error) {
      // A run of the period asked by hand is going: it is that run's.
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    periods.push(input.period.start);
  }
  return { periods };
}

/** Periodic: every merchant's global-invoice Schedule as its setting says (recreated when it went missing). */
export async function syncGlobalInvoiceSchedulesWorkflow(): Promise<GlobalScheduleSyncReport> {
  const report = await schedules.syncGlobalInvoiceSchedules(workflowInfo().taskQueue);
  if (report.created.length || report.resumed.length || report.paused.length)
    log.warn('global-invoice schedules changed to match the settings', { ...report });
  return report;
}
