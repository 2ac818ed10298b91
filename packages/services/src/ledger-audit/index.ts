import type { EntityManager } from '@cfdi/db';
import { checkAllBalances, checkBalancesSinceCheckpoints } from './balances';
import {
  fullAuditSince,
  insertLedgerAudit,
  lastMonthStart,
  selectLatestAudit,
  startAuditSnapshot,
  upsertCheckpoints,
} from './ledger-audit-repository';
import type { LedgerAudit, LedgerAuditMode, LedgerAuditReport } from './report';
import {
  outcomeViolations,
  purchaseViolations,
  refundViolations,
  staleViolations,
  usageViolations,
  WHOLE_LEDGER,
  type RuleWindow,
} from './rules';

export type * from './report';

/** How far back an incremental audit re-checks documents' outcomes (a stamp settles in seconds, a retry in hours). */
const OUTCOME_WINDOW_HOURS = 48;
/** A full audit at least this often; incremental ones in between (see `chooseLedgerAuditMode`). */
const FULL_AUDIT_EVERY_HOURS = 24;

/**
 * Checks the money invariants: balance = balanceAfter of the last applied entry = sum of all deltas, and (for the
 * entries an incremental audit reads) each entry's balanceAfter is the previous one's plus its delta; every refund
 * returns exactly what its consume took; every document's reservation has exactly one outcome that agrees with the
 * ledger (confirmed ⇒ no refund, refunded ⇒ one refund); each month's timbre count (which the cap and the volume
 * price read) equals the ledger's net consumes; no reservation waits longer than `staleAfterHours` unless an
 * operator is reconciling it; and every credited purchase has exactly one `purchase` entry of what Stripe paid (none
 * for the others, none without a purchase). Read-only; safe to run at any time.
 *
 * A `full` audit reads everything. An `incremental` one reads each balance's entries since its checkpoint (where the
 * last clean audit of it ended), the refunds since the oldest checkpoint, the outcomes of documents reserved or
 * refunded in the last 48 hours, and this month's and the last one's usage; stale reservations and purchases are
 * read whole (both through small indexes). What it cannot see (an old entry rewritten in place, an old document's
 * outcome changed without a ledger entry) the daily full audit does.
 */
export async function auditLedger(
  em: EntityManager,
  options: { staleAfterHours?: number; mode?: LedgerAuditMode } = {},
): Promise<LedgerAudit> {
  const mode = options.mode ?? 'full';
  // One read-only snapshot, so every rule sees the same ledger. No JIT: the incremental reads are index probes the
  // planner overestimates (compiling them took ~0.8 s of a 2 ms query), and the full audit gains nothing from it.
  return em.transactional(async (tx) => {
    await startAuditSnapshot(tx, mode);
    const balances = mode === 'full' ? await checkAllBalances(tx) : await checkBalancesSinceCheckpoints(tx);
    const window = mode === 'full' ? WHOLE_LEDGER : await incrementalWindow(tx);
    const violations = [
      ...balances.violations,
      ...(await refundViolations(tx, window)),
      ...(await outcomeViolations(tx, window)),
      ...(await usageViolations(tx, window)),
      ...(await staleViolations(tx, options.staleAfterHours ?? 2)),
      ...(await purchaseViolations(tx)),
    ];
    const report: LedgerAuditReport = {
      checkedAt: new Date().toISOString(),
      mode,
      balancesChecked: balances.balancesChecked,
      entriesChecked: balances.entriesChecked,
      violations,
    };
    return { report, checkpoints: balances.checkpoints };
  });
}

/** The scheduled audit's mode: full when no full audit was recorded in the last 24 hours, incremental otherwise. */
export async function chooseLedgerAuditMode(em: EntityManager): Promise<LedgerAuditMode> {
  return (await fullAuditSince(em, FULL_AUDIT_EVERY_HOURS)) ? 'incremental' : 'full';
}

async function incrementalWindow(em: EntityManager): Promise<RuleWindow> {
  return { whole: false, outcomeHours: OUTCOME_WINDOW_HOURS, usageFromMonth: await lastMonthStart(em) };
}

/**
 * Keeps an audit's verdict (the schedule calls this after each run) and moves the checkpoints of the balances it
 * found clean, so the next incremental audit starts there.
 */
export async function recordLedgerAudit(em: EntityManager, audit: LedgerAudit): Promise<void> {
  const { report, checkpoints } = audit;
  await em.transactional(async (tx) => {
    await insertLedgerAudit(tx, report);
    if (!checkpoints.length) return;
    await upsertCheckpoints(tx, checkpoints);
  });
}

/** The newest recorded audit, for the operators' console. */
export async function latestLedgerAudit(
  em: EntityManager,
): Promise<{ ranAt: string; balancesChecked: number; violations: number } | null> {
  const row = await selectLatestAudit(em);
  return row
    ? {
        ranAt: new Date(row.created_at).toISOString(),
        balancesChecked: row.balances_checked,
        violations: row.violations,
      }
    : null;
}
