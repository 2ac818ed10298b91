/** Plain data crossing the workflow/activity boundary for stamping (serialisable, no entities). */

/** A definitive answer about one document's stamp, before it is recorded. */
export type StampResult =
  | { outcome: 'stamped'; uuid: string; xml: string }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'ambiguous'; detail: string }
  /** A business reason it can never be sealed (no CSD, expired CSD): nothing was sent. */
  | { outcome: 'unsealable'; code: string; message: string };

/** A stamp attempt as recorded: `unrecorded` hands a result back when its database write failed. */
export type StampAttempt =
  | { outcome: 'stamped'; uuid: string; filesReady: boolean }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'failed'; code: string; message: string }
  | { outcome: 'ambiguous'; detail: string }
  | { outcome: 'unrecorded'; result: StampResult };

export type PacLookupOutcome =
  | { outcome: 'stamped'; uuid: string; xml: string }
  | { outcome: 'not_stamped'; detail: string }
  | { outcome: 'unknown'; detail: string };

/** What POST /v1/invoices answers from: 201, 422, 503, or 202 while reconciling. */
export type StampOutcome =
  | { outcome: 'stamped'; uuid: string }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'unavailable'; detail: string }
  | { outcome: 'failed'; code: string; message: string }
  | { outcome: 'reconciling'; detail: string };

export interface OperatorResolution {
  stamped: boolean;
  /** Required when stamped: the UUID the operator found at the PAC or the SAT. */
  uuid?: string;
  resolvedBy: string;
  note?: string;
}

export interface StampWorkflowInput {
  documentId: string;
  /** Backoff of the PAC's already-stamped lookup while reconciling; from configuration (workflows read no env). */
  reconciliation: { firstLookupSeconds: number; maxLookupSeconds: number };
}
