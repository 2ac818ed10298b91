// Type checks only (not part of the bundle): each workflow has the signature the contract's client helpers start it
// with, so a change on either side fails typecheck.
import type {
  CancelDocumentWorkflow,
  DeliverWebhookWorkflow,
  DispatchWebhooksWorkflow,
  ExportDocumentsWorkflow,
  LedgerAuditWorkflow,
  RegenerateFilesWorkflow,
  ResumeStalledWorkflow,
  StampDocumentWorkflow,
} from '@cfdi/temporal-contract';
import type * as workflows from './index';

type Implements<Contract, Implementation extends Contract> = Implementation;

export type _Signatures = [
  Implements<StampDocumentWorkflow, typeof workflows.stampDocumentWorkflow>,
  Implements<CancelDocumentWorkflow, typeof workflows.cancelDocumentWorkflow>,
  Implements<RegenerateFilesWorkflow, typeof workflows.regenerateFilesWorkflow>,
  Implements<DeliverWebhookWorkflow, typeof workflows.deliverWebhookWorkflow>,
  Implements<DispatchWebhooksWorkflow, typeof workflows.dispatchWebhooksWorkflow>,
  Implements<LedgerAuditWorkflow, typeof workflows.ledgerAuditWorkflow>,
  Implements<ResumeStalledWorkflow, typeof workflows.resumeStalledWorkflow>,
  Implements<ExportDocumentsWorkflow, typeof workflows.exportDocumentsWorkflow>,
];
