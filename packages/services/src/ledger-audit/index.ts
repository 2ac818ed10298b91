import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from '../time';
import { checkAllBalances, checkBalancesSinceCheckpoints } from './balances';
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
    await tx.execute('set transaction isolation level repeatable read, read only');
    await tx.execute('set local jit = off');
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
  const rows: unknown[] = await em.execute(
    `select 1 from ledger_audits where mode = 'full' and created_at > now() - make_interval(hours => ?) limit 1`,
    [FULL_AUDIT_EVERY_HOURS],
  );
  return rows.length ? 'incremental' : 'full';
}

async function incrementalWindow(em: EntityManager): Promise<RuleWindow> {
  const [bounds]: { last_month: string }[] = await em.execute(
    `select to_char(date_trunc('month', now() at time zone '${MEXICO_CITY}') - interval '1 month', 'YYYY-MM-DD')
              as last_month`,
  );
  return { whole: false, outcomeHours: OUTCOME_WINDOW_HOURS, usageFromMonth: bounds!.last_month };
}

/**
 * Keeps an audit's verdict (the schedule calls this after each run) and moves the checkpoints of the balances it
 * found clean, so the next incremental audit starts there.
 */
export async function recordLedgerAudit(em: EntityManager, audit: LedgerAudit): Promise<void> {
  const { report, checkpoints } = audit;
  await em.transactional(async (tx) => {
    await tx.execute(
      'insert into ledger_audits (mode, balances_checked, violations, report) values (?, ?, ?, ?)',
      [report.mode, report.balancesChecked, report.violations.length, JSON.stringify(report)],
    );
    if (!checkpoints.length) return;
    await tx.execute(
      `insert into ledger_audit_checkpoints (account_id, livemode, seq, balance_after_centavos, sum_centavos)
       select * from unnest(?::text[], ?::boolean[], ?::bigint[], ?::bigint[], ?::bigint[])
       on conflict (account_id, livemode) do update
         set seq = excluded.seq, balance_after_centavos = excluded.balance_after_centavos,
             sum_centavos = excluded.sum_centavos, checked_at = now()`,
      [
        checkpoints.map((c) => c.accountId),
        checkpoints.map((c) => c.livemode),
        checkpoints.map((c) => c.seq),
        checkpoints.map((c) => c.balanceAfterCentavos),
        checkpoints.map((c) => c.sumCentavos),
      ],
    );
  });
}

/** The newest recorded audit, for the operators' console. */
export async function latestLedgerAudit(
  em: EntityManager,
): Promise<{ ranAt: string; balancesChecked: number; violations: number } | null> {
  const rows: { created_at: Date; balances_checked: number; violations: number }[] = await em.execute(
    'select created_at, balances_checked, violations from ledger_audits order by id desc limit 1',
  );
  return rows[0]
    ? {
        ranAt: new Date(rows[0].created_at).toISOString(),
        balancesChecked: rows[0].balances_checked,
        violations: rows[0].violations,
      }
    : null;
}
