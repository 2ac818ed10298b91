/** Plain data crossing the workflow/activity boundary for stamping (serialisable, no entities). */
import type { PacStampResult, ReconciliationResolution, StampOutcome } from '@cfdi/services';

export type { PacStampResult, StampOutcome } from '@cfdi/services';

/**
 * The fast path's result: the recorded outcome, or (`unrecorded`) the PAC's result handed back when its database
 * write failed, for the workflow to record with retries.
 */
export type StampAttempt = StampOutcome | { outcome: 'unrecorded'; result: PacStampResult };

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
}
