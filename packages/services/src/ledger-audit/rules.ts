import type { EntityManager } from '@cfdi/db';
import type { LedgerViolation } from './report';
import {
  outcomeMismatches,
  purchaseMismatches,
  refundMismatches,
  staleReservations,
  usageMismatches,
} from './ledger-audit-repository';

export type { RuleWindow } from './ledger-audit-repository';

import type { RuleWindow } from './ledger-audit-repository';

export const WHOLE_LEDGER: RuleWindow = { whole: true };

/** Every refund returns exactly what its consume took. */
export async function refundViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const rows = await refundMismatches(em, window);
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'refund_matches_consume' as const,
    detail: `refund ${row.id} does not mirror its consume`,
  }));
}

/**
 * Every document's reservation has exactly one outcome that agrees with the ledger (confirmed ⇒ no refund and a
 * stamped document, refunded ⇒ one refund).
 */
export async function outcomeViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const rows = await outcomeMismatches(em, window);
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'outcome_matches_ledger' as const,
    detail: `${row.id}: reservation ${row.reservation_state} with ${row.refunds} refund(s)`,
  }));
}

/** Each month's timbre count and spend (which the cap, the volume price and usage read) equal the ledger's. */
export async function usageViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const rows = await usageMismatches(em, window);
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'usage_matches_ledger' as const,
    detail:
      row.counted === row.ledger
        ? `${row.month}: monthly_usage spent ${row.counted_spent} centavos ≠ ledger ${row.ledger_spent}`
        : `${row.month}: monthly_usage ${row.counted ?? 'missing'} ≠ ledger ${row.ledger ?? 'none'}`,
  }));
}

/**
 * No reservation (a stamp's, or a cancellation's from the request until the PAC answers) waits longer than
 * `staleAfterHours` unless an operator is reconciling it.
 */
export async function staleViolations(
  em: EntityManager,
  staleAfterHours: number,
): Promise<LedgerViolation[]> {
  const { stale, staleCancellations } = await staleReservations(em, staleAfterHours);
  return [
    ...stale.map((row) => ({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'stale_reservation' as const,
      detail: `${row.id}: reserved for over ${staleAfterHours} h without an outcome or a reconciliation`,
    })),
    ...staleCancellations.map((row) => ({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'stale_reservation' as const,
      detail: `${row.id}: cancellation reserved for over ${staleAfterHours} h without the PAC's answer`,
    })),
  ];
}

/** A Stripe top-up reaches the ledger exactly once, in its own account and mode, for what Stripe said was paid. */
export async function purchaseViolations(em: EntityManager): Promise<LedgerViolation[]> {
  const rows = await purchaseMismatches(em);
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'purchase_matches_ledger' as const,
    detail: `${row.id}: ${row.detail}`,
  }));
}
