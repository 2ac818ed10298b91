import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { OperatorResolution, StampOutcome } from './stamping';
import type { CancelOutcome } from './cancellation';

/**
 * The one place that names Temporal things. Task queues are versioned so a breaking change can run beside the
 * old workers while their workflows drain.
 */
export const TASK_QUEUE = 'stamping-v1';

export const LEDGER_AUDIT_SCHEDULE_ID = 'ledger-audit';

export const RESUME_STALLED_SCHEDULE_ID = 'resume-stalled';

export const stampWorkflowId = (documentId: string) => `stamp-${documentId}`;

/** Document files render on their own queue beside the stamping queue (bounded concurrency, see the worker). */
export const filesTaskQueue = (taskQueue: string) => `${taskQueue}-files`;

/** An operator's decision on an ambiguous PAC outcome (CLI `cfdi reconcile resolve`). */
export const resolveReconciliationSignal = defineSignal<[OperatorResolution]>('resolveReconciliation');

/** Waits for the stamping outcome (stamped, rejected, unavailable, or reconciling); files come after it. */
export const stampOutcomeUpdate = defineUpdate<StampOutcome>('stampOutcome');

export const cancelWorkflowId = (documentId: string) => `cancel-${documentId}`;

export const regenerateFilesWorkflowId = (documentId: string) => `files-${documentId}`;

/** Waits until the PAC answered a cancellation request (cancelled, pending the receiver, refused, unavailable). */
export const cancelOutcomeUpdate = defineUpdate<CancelOutcome>('cancelOutcome');

/** Webhook dispatch and deliveries run on their own queue, so a slow receiver never holds up stamping. */
export const webhooksTaskQueue = (taskQueue: string) => `${taskQueue}-webhooks`;

/** The Schedule that keeps one outbox dispatcher running per task queue. */
export const webhookDispatchScheduleId = (taskQueue: string) => `webhook-dispatch-${taskQueue}`;

/** One delivery per (event, endpoint): a dispatch repeated after a crash finds it started and delivers nothing twice. */
export const webhookDeliveryWorkflowId = (eventId: string, endpointId: string) =>
  `webhook-${eventId}-${endpointId}`;

/** A redelivery asked through the API is a delivery of its own. */
export const webhookRedeliveryWorkflowId = (eventId: string, endpointId: string, requestId: string) =>
  `webhook-${eventId}-${endpointId}-redelivery-${requestId}`;

/** One workflow per e-mail delivery (eml_…): starting it again, from a retried step or a repeated request, sends nothing twice. */
export const emailWorkflowId = (deliveryId: string) => `email-${deliveryId}`;

/**
 * One global invoice per merchant and period: a scheduled run, a manual one and a retry of either all carry this id,
 * so they join one workflow, and a run started again after it closed finds the period's document and stamps nothing.
 */
export const globalInvoiceWorkflowId = (run: {
  merchantId: string;
  period: { periodicidad: string; start: string };
}) => `global-invoice-${run.merchantId}-${run.period.periodicidad}-${run.period.start}`;

/** The Schedule of a merchant's automatic global invoice (daily; each run stamps the periods that became due). */
export const globalInvoiceScheduleId = (merchantId: string) => `global-invoice-${merchantId}`;

/** The Schedule that makes Temporal's global-invoice Schedules match the merchants' settings. */
export const GLOBAL_INVOICE_SCHEDULES_SYNC_ID = 'global-invoice-schedules';
/** One workflow per console export (exp_…), on the stamping queue. */
export const exportWorkflowId = (exportId: string) => `export-${exportId}`;
