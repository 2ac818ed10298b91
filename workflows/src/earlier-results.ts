import type { StampAttempt, StampOutcome } from '@cfdi/temporal-contract';

/**
 * Activity results as workers recorded them before a stamp's outcome carried its document (2026-11-28): runs
 * started then replay them from their histories. Read here into today's types so both take the same path; a stamp
 * recorded then has no document, which `earlierStamp` tells apart so the workflow can load it.
 */
type EarlierAttempt =
  | { outcome: 'stamped'; uuid: string; filesReady: boolean }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'ambiguous'; detail: string };

/** A stamp recorded before outcomes carried the document: only its UUID and whether its files were ready. */
export interface EarlierStamp {
  outcome: 'earlier_stamp';
  filesReady: boolean;
}

export function readAttempt(raw: StampAttempt | EarlierAttempt): StampAttempt | EarlierStamp {
  switch (raw.outcome) {
    case 'stamped':
      return 'document' in raw ? raw : { outcome: 'earlier_stamp', filesReady: raw.filesReady };
    case 'rejected':
      return { outcome: 'failed', code: raw.code, message: raw.message };
    case 'ambiguous':
      return { outcome: 'reconciling', detail: raw.detail };
    default:
      return raw;
  }
}

/** recordOperatorStamped answered the UUID alone before 2026-11-28. */
export function readOperatorStamped(raw: StampOutcome | string): StampOutcome | EarlierStamp {
  return typeof raw === 'string' ? { outcome: 'earlier_stamp', filesReady: false } : raw;
}

/** recordStampFailure answered nothing before 2026-11-28: the failure is the one it was asked to record. */
export function readStampFailure(
  raw: StampOutcome | undefined,
  failure: { code: string; message: string },
): StampOutcome {
  return raw ?? { outcome: 'failed', ...failure };
}
