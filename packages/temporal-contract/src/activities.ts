import type {
  AcuseRecord,
  ExportPartResult,
  ExportPartState,
  CancellationProgress,
  LedgerAuditReport,
  PacStampResult,
  ReconciliationResolution,
  StalledWork,
  StampOutcome,
} from '@cfdi/services';
import type { PacLookupOutcome, StampAttempt } from './stamping';
import type { WebhookAttemptResult, WebhookDispatchInput } from './webhooks';
import type { EmailAttempt } from './emails';
import type { GlobalInvoiceInput, GlobalInvoiceRun } from './global-invoices';
import type { GlobalScheduleSyncReport } from './workflows';

/** A cancellation the PAC answered: cancelled at once, or waiting for the receiver, with the SAT's acuse. */
export interface CancellationSubmitted {
  outcome: 'cancelled' | 'pending';
  acuse: AcuseRecord;
}

export interface ResumeStalledReport {
  checked: number;
  /** Documents whose stamp or cancel workflow was missing and now runs. */
  resumed: Array<{ documentId: string; work: StalledWork }>;
  /** E-mail deliveries recorded but left without their workflow, now sending (absent from older results). */
  emailsResumed?: string[];
  /** Low-balance warnings sent (absent from older results). */
  balanceAlertsSent?: number;
}

/**
 * Every activity the workflows call, by the name the worker registers it under. Workflows see only this interface
 * (`proxyActivities<Activities>`); `@cfdi/activities` implements it. Names are part of recorded histories: renaming
 * one is a breaking change (a new task queue version).
 */
export interface Activities {
  // Stamping (see stampDocumentWorkflow)
  stampDocument(documentId: string): Promise<StampAttempt>;
  recordStampResult(documentId: string, result: PacStampResult): Promise<StampOutcome>;
  /** The outcome as recorded (for runs whose stamp an earlier worker version recorded without the document). */
  loadStampOutcome(documentId: string): Promise<StampOutcome>;
  lookupStamped(documentId: string): Promise<PacLookupOutcome>;
  recordOperatorStamped(documentId: string, uuid: string): Promise<StampOutcome>;
  recordStampFailure(documentId: string, failure: { code: string; message: string }): Promise<StampOutcome>;
  recordReconciliation(documentId: string, resolution: ReconciliationResolution): Promise<void>;
  generateDocumentFiles(documentId: string): Promise<void>;

  // Cancellation (see cancelDocumentWorkflow)
  submitCancellation(
    documentId: string,
  ): Promise<CancellationSubmitted | { outcome: 'refused'; code: string; message: string }>;
  cancellationProgress(documentId: string): Promise<CancellationProgress>;
  recordCancellationSubmitted(documentId: string, submitted: CancellationSubmitted): Promise<void>;
  recordCancellationResolved(documentId: string, resolution: 'accepted' | 'rejected'): Promise<void>;
  recordCancellationRefused(documentId: string, reason: string): Promise<void>;

  // Global invoice of receipts (see globalInvoiceWorkflow)
  createGlobalInvoice(run: GlobalInvoiceRun): Promise<{ documentId: string | null }>;
  /** The stamp outcome of a document as recorded now; null while it is still stamping. */
  currentStampOutcome(documentId: string): Promise<StampOutcome | null>;
  /** The periods of the merchant's global invoice that are due now, as workflow inputs (empty when it is off). */
  dueGlobalInvoices(merchantId: string): Promise<GlobalInvoiceInput[]>;
  syncGlobalInvoiceSchedules(taskQueue: string): Promise<GlobalScheduleSyncReport>;

  // Upkeep
  resumeStalledDocuments(taskQueue: string): Promise<ResumeStalledReport>;
  /** Runs the audit the schedule is due (full daily, incremental between), records it, answers its verdict. */
  auditLedger(): Promise<LedgerAuditReport>;

  // Webhooks
  drainOutbox(input: WebhookDispatchInput & { taskQueue: string }): Promise<{ events: number }>;
  attemptWebhookDelivery(input: {
    eventId: string;
    endpointId: string;
    redelivery: boolean;
  }): Promise<WebhookAttemptResult>;

  // E-mail (see sendEmailWorkflow)
  attemptEmailDelivery(input: { deliveryId: string; finalAttempt: boolean }): Promise<EmailAttempt>;
  /**
   * The merchant's automatic e-mail after a stamp or a cancellation: records it once per document and trigger and
   * starts its workflow on `taskQueue`'s webhooks queue; null when the merchant does not send automatically.
   */
  queueAutomaticEmail(input: {
    documentId: string;
    trigger: 'stamped' | 'cancelled';
    taskQueue: string;
  }): Promise<string | null>;

  // Console exports (see exportDocumentsWorkflow)
  /** Writes one part of the export (heartbeats per document); the same state writes the same bytes. */
  writeExportPart(input: { exportId: string; state: ExportPartState }): Promise<ExportPartResult>;
  /** Streams the parts into the export's file and marks it ready. */
  finishExport(input: { exportId: string; state: ExportPartState }): Promise<{ bytes: number }>;
  failExport(input: { exportId: string; reason: string }): Promise<void>;
}

export type { ExportPartResult, ExportPartState };
