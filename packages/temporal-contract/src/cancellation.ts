/** Plain data crossing the workflow boundary for cancellations (serialisable, no entities). */

/** What POST …/cancel answers from: 202 (cancelled or awaiting the receiver), 422, 503. */
export type CancelOutcome =
  | { outcome: 'cancelled' }
  | { outcome: 'pending' }
  /** Only as the workflow's result: the receiver refused after the API had answered 202 pending. */
  | { outcome: 'receiver_rejected' }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'unavailable'; detail: string };

export interface CancelWorkflowInput {
  documentId: string;
  /** Backoff of the SAT status query while the receiver decides; from configuration (workflows read no env). */
  polling: { firstPollSeconds: number; maxPollSeconds: number };
  /** Set when the workflow continues as new: the request was already answered, only the waiting is left. */
  resumePollingSeconds?: number;
}
