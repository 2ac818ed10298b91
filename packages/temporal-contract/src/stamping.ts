/** Plain data crossing the workflow/activity boundary for stamping (serialisable, no entities). */
import type { PacStampResult, ReconciliationResolution } from '@cfdi/services';

export type { PacStampResult, StampAttempt, StampOutcome } from '@cfdi/services';

export type PacLookupOutcome =
  | { outcome: 'stamped'; uuid: string; xml: string }
  | { outcome: 'not_stamped'; detail: string }
  | { outcome: 'unknown'; detail: string };

/** An operator's decision on an ambiguous PAC outcome, as the reconciliation records it. */
export type OperatorResolution = ReconciliationResolution;

export interface StampWorkflowInput {
  documentId: string;
  /** Backoff of the PAC's already-stamped lookup while reconciling; from configuration (workflows read no env). */
  reconciliation: { firstLookupSeconds: number; maxLookupSeconds: number };
  /**
   * The PAC's answer to the API's own attempt, which the API did not record: ambiguous (the workflow that reconciles
   * it records it), or its database write failed. The workflow records it instead of sending anything.
   */
  answered?: PacStampResult;
}
