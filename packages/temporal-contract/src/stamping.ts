/** Plain data crossing the workflow/activity boundary for stamping (serialisable, no entities). */
import type { PacStampResult, ReconciliationResolution, StampOutcome } from '@cfdi/services';

export type { PacStampResult, StampOutcome } from '@cfdi/services';

/**
 * The fast path's result: the recorded outcome, or (`unrecorded`) the PAC's result handed back when its database
 * write failed, for the workflow to record with retries. A stamp it recorded says whether an automatic e-mail can be
 * due (`autoEmail`: a mailer, the customer's or merchant's setting on, a kind with a PDF); `false` spares the
 * workflow its e-mail step. Absent (results recorded before 2026-11-28 17:00 UTC, other paths): the step runs.
 */
export type StampAttempt =
  (StampOutcome & { autoEmail?: boolean }) | { outcome: 'unrecorded'; result: PacStampResult };

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
