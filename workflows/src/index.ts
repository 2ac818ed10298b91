// Bundle entry for the worker: workflow functions only (deterministic code).
export { ledgerAuditWorkflow } from './ledger-audit';
export { stampDocumentWorkflow } from './stamp-document';
export { cancelDocumentWorkflow } from './cancel-document';
export { resumeStalledWorkflow } from './resume-stalled';
export { regenerateFilesWorkflow } from './regenerate-files';
export { deliverWebhookWorkflow } from './deliver-webhook';
export { dispatchWebhooksWorkflow } from './dispatch-webhooks';
export { sendEmailWorkflow } from './send-email';
export {
  globalInvoiceWorkflow,
  merchantGlobalInvoicesWorkflow,
  syncGlobalInvoiceSchedulesWorkflow,
} from './global-invoice';
export { exportDocumentsWorkflow } from './export-documents';
