import type { CancelOutcome, CancelWorkflowInput } from './cancellation';
import type { StampOutcome, StampWorkflowInput } from './stamping';
import type { EmailAttempt, SendEmailInput } from './emails';
import type { GlobalInvoiceInput, GlobalInvoiceOutcome } from './global-invoices';
import type { WebhookDeliveryInput, WebhookDeliveryOutcome, WebhookDispatchInput } from './webhooks';

/**
 * The workflows' signatures, by their registered names: the client helpers start them through these types and
 * `workflows/` implements them (each workflow is declared `satisfies` its type there), so neither imports the other.
 */
export type StampDocumentWorkflow = (input: StampWorkflowInput) => Promise<StampOutcome>;
export type CancelDocumentWorkflow = (input: CancelWorkflowInput) => Promise<CancelOutcome>;
export type RegenerateFilesWorkflow = (documentId: string) => Promise<void>;
export type DeliverWebhookWorkflow = (
  input: WebhookDeliveryInput,
) => Promise<{ outcome: WebhookDeliveryOutcome; attempts: number }>;
export type DispatchWebhooksWorkflow = (input: WebhookDispatchInput) => Promise<{ events: number }>;
export type LedgerAuditWorkflow = () => Promise<{ balancesChecked: number; violations: number }>;
export type ResumeStalledWorkflow = () => Promise<{ checked: number; resumed: number }>;
export type ExportDocumentsWorkflow = (
  exportId: string,
) => Promise<{ status: 'ready' | 'failed'; documents: number }>;
export type SendEmailWorkflow = (
  input: SendEmailInput,
) => Promise<{ status: EmailAttempt['status']; attempts: number }>;
export type GlobalInvoiceWorkflow = (input: GlobalInvoiceInput) => Promise<GlobalInvoiceOutcome>;
export type MerchantGlobalInvoicesWorkflow = (merchantId: string) => Promise<{ periods: string[] }>;
export type SyncGlobalInvoiceSchedulesWorkflow = () => Promise<GlobalScheduleSyncReport>;

/** What a sync of the global-invoice Schedules changed. */
export interface GlobalScheduleSyncReport {
  created: string[];
  resumed: string[];
  paused: string[];
}
