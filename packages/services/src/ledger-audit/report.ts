/** What the ledger audit checks: each rule names one money invariant (see `auditLedger`). */
export type LedgerRule =
  | 'balance_matches_last_entry'
  | 'balance_matches_sum'
  | 'entry_follows_previous'
  | 'refund_matches_consume'
  | 'outcome_matches_ledger'
  | 'usage_matches_ledger'
  | 'stale_reservation'
  | 'purchase_matches_ledger';

export interface LedgerViolation {
  accountId: string;
  livemode: boolean;
  rule: LedgerRule;
  detail: string;
}

/**
 * `full` reads every entry and document; `incremental` reads what changed since the last clean audit of each balance
 * (see `auditLedger`).
 */
export type LedgerAuditMode = 'full' | 'incremental';

export interface LedgerAuditReport {
  checkedAt: string;
  mode: LedgerAuditMode;
  balancesChecked: number;
  /** Ledger entries read for the balance rules (all of them in a full audit, the new ones in an incremental one). */
  entriesChecked: number;
  violations: LedgerViolation[];
}

/**
 * Where a balance's verified prefix of the ledger ends: its entries up to `seq` add up to `sumCentavos` and the last
 * one left `balanceAfterCentavos`. An incremental audit starts from here.
 */
export interface LedgerCheckpoint {
  accountId: string;
  livemode: boolean;
  seq: string;
  balanceAfterCentavos: string;
  sumCentavos: string;
}

/** A run's verdict plus the checkpoints of the balances it found clean (recorded with it). */
export interface LedgerAudit {
  report: LedgerAuditReport;
  checkpoints: LedgerCheckpoint[];
}
