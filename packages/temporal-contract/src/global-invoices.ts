/** Plain data of the automatic global invoice of receipts (see globalInvoiceWorkflow). */
import type { GlobalInvoiceRun, StampOutcome } from '@cfdi/services';
import type { StampWorkflowInput } from './stamping';

export type { GlobalInvoiceRun } from '@cfdi/services';

/** One period's global invoice of one merchant, with what its stamp workflow needs. */
export interface GlobalInvoiceInput extends GlobalInvoiceRun {
  reconciliation: StampWorkflowInput['reconciliation'];
}

/** No open receipt in the period (nothing stored or charged), or the period's document and its stamp's outcome. */
export type GlobalInvoiceOutcome = { documentId: null } | { documentId: string; outcome: StampOutcome };
