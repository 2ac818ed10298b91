import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from './time';

export interface LedgerViolation {
  accountId: string;
  livemode: boolean;
  rule:
    | 'balance_matches_last_entry'
    | 'balance_matches_sum'
    | 'refund_matches_consume'
    | 'outcome_matches_ledger'
    | 'usage_matches_ledger'
    | 'stale_reservation'
    | 'purchase_matches_ledger';
  detail: string;
}

export interface LedgerAuditReport {
  checkedAt: string;
  balancesChecked: number;
  violations: LedgerViolation[];
}

/**
 * Checks the money invariants: balance = balanceAfter of the last applied entry = sum of all deltas; every refund
 * returns exactly what its consume took; every document's reservation has exactly one outcome that agrees with
 * the ledger (confirmed ⇒ no refund, refunded ⇒ one refund); each month's timbre count (which the cap and the volume
 * price read) equals the ledger's net consumes; no reservation waits longer than `staleAfterHours` unless an
 * operator is reconciling it; and every credited purchase has exactly one `purchase` entry of what Stripe paid (none
 * for the others, none without a purchase). Read-only; safe to run at any time.
 */
export async function auditLedger(
  em: EntityManager,
  options: { staleAfterHours?: number } = {},
): Promise<LedgerAuditReport> {
  const staleAfterHours = options.staleAfterHours ?? 2;
  const rows: {
    account_id: string;
    livemode: boolean;
    balance: string;
    last_after: string | null;
    total: string;
  }[] = await em.execute(
    `select b.account_id, b.livemode, b.balance_centavos as balance, last.balance_after_centavos as last_after, sums.total
       from balances b
       left join lateral (select balance_after_centavos from transactions t
                           where t.account_id = b.account_id and t.livemode = b.livemode order by seq desc limit 1) last on true
       cross join lateral (select coalesce(sum(delta_centavos), 0) as total from transactions t
                            where t.account_id = b.account_id and t.livemode = b.livemode) sums`,
  );
  const violations: LedgerViolation[] = [];
  for (const row of rows) {
    const scope = { accountId: row.account_id, livemode: row.livemode };
    if (Number(row.balance) !== Number(row.last_after ?? 0)) {
      violations.push({
        ...scope,
        rule: 'balance_matches_last_entry',
        detail: `balance ${row.balance} ≠ last balanceAfter ${row.last_after}`,
      });
    }
    if (Number(row.balance) !== Number(row.total)) {
      violations.push({
        ...scope,
        rule: 'balance_matches_sum',
        detail: `balance ${row.balance} ≠ sum of deltas ${row.total}`,
      });
    }
  }
  const badRefunds: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select r.account_id, r.livemode, r.id from transactions r join transactions c on c.id = r.reversal_of
      where r.type = 'refund' and (c.type <> 'consume' or r.delta_centavos <> -c.delta_centavos)`,
  );
  for (const row of badRefunds) {
    violations.push({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'refund_matches_consume',
      detail: `refund ${row.id} does not mirror its consume`,
    });
  }
  const mismatched: {
    account_id: string;
    livemode: boolean;
    id: string;
    reservation_state: string;
    refunds: number;
  }[] = await em.execute(
    `select d.account_id, d.livemode, d.id, d.reservation_state,
            (select count(*)::int from transactions r where r.reversal_of = d.reservation_id) as refunds
       from documents d
      where d.reservation_id is not null
        and ((d.reservation_state = 'refunded') <> exists (select 1 from transactions r where r.reversal_of = d.reservation_id)
             or (d.reservation_state = 'confirmed' and d.status not in ('stamped', 'cancel_pending', 'cancelled')))`,
  );
  for (const row of mismatched) {
    violations.push({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'outcome_matches_ledger',
      detail: `${row.id}: reservation ${row.reservation_state} with ${row.refunds} refund(s)`,
    });
  }
  const miscounted: {
    account_id: string;
    livemode: boolean;
    month: string;
    counted: number | null;
    ledger: number | null;
    counted_spent: string | null;
    ledger_spent: string | null;
  }[] = await em.execute(
    `select coalesce(u.account_id, l.account_id) as account_id, coalesce(u.livemode, l.livemode) as livemode,
            to_char(coalesce(u.month, l.month), 'YYYY-MM') as month, u.timbres as counted, l.timbres as ledger,
            u.spent_centavos as counted_spent, l.spent as ledger_spent
       from monthly_usage u
       full join (select account_id, livemode, date_trunc('month', created_at at time zone '${MEXICO_CITY}')::date as month,
                         sum(case type when 'consume' then 1 else -1 end)::int as timbres, -sum(delta_centavos) as spent
                    from transactions where type in ('consume', 'refund') group by 1, 2, 3) l
         on l.account_id = u.account_id and l.livemode = u.livemode and l.month = u.month
      where u.timbres is distinct from l.timbres or u.spent_centavos is distinct from l.spent`,
  );
  for (const row of miscounted) {
    violations.push({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'usage_matches_ledger',
      detail:
        row.counted === row.ledger
          ? `${row.month}: monthly_usage spent ${row.counted_spent} centavos ≠ ledger ${row.ledger_spent}`
          : `${row.month}: monthly_usage ${row.counted ?? 'missing'} ≠ ledger ${row.ledger ?? 'none'}`,
    });
  }
  const stale: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select account_id, livemode, id from documents
      where reservation_state = 'reserved' and status <> 'draft' and not needs_reconciliation and created_at < now() - make_interval(hours => ?)`,
    [staleAfterHours],
  );
  for (const row of stale) {
    violations.push({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'stale_reservation',
      detail: `${row.id}: reserved for over ${staleAfterHours} h without an outcome or a reconciliation`,
    });
  }
  // A cancellation's timbre is reserved from the request until the PAC answers, like a stamp's.
  const staleCancellations: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select account_id, livemode, id from documents
      where status = 'stamped' and cancellation->>'status' = 'pending' and updated_at < now() - make_interval(hours => ?)`,
    [staleAfterHours],
  );
  for (const row of staleCancellations) {
    violations.push({
      accountId: row.account_id,
      livemode: row.livemode,
      rule: 'stale_reservation',
      detail: `${row.id}: cancellation reserved for over ${staleAfterHours} h without the PAC's answer`,
    });
  }
  violations.push(...(await purchaseViolations(em)));
  return { checkedAt: new Date().toISOString(), balancesChecked: rows.length, violations };
}

/** A Stripe top-up reaches the ledger exactly once, in its own account and mode, for what Stripe said was paid. */
async function purchaseViolations(em: EntityManager): Promise<LedgerViolation[]> {
  const rows: { account_id: string; livemode: boolean; id: string; detail: string }[] = await em.execute(
    `select p.account_id, p.livemode, p.id,
            p.status || ' purchase (credited ' || coalesce(p.credited_centavos::text, 'nothing') || ') with '
              || count(t.id) || ' ledger entr(ies) of ' || coalesce(sum(t.delta_centavos), 0) as detail
       from purchases p left join transactions t on t.type = 'purchase' and t.reference_id = p.id
      group by p.id
     having count(t.id) <> (case p.status when 'succeeded' then 1 else 0 end)
         or (p.status = 'succeeded' and (sum(t.delta_centavos) <> p.credited_centavos or min(t.id) <> p.transaction_id
             or bool_or(t.account_id <> p.account_id or t.livemode <> p.livemode or t.reference_type <> 'purchase')))
     union all
     select t.account_id, t.livemode, t.id, 'purchase entry for no purchase (' || coalesce(t.reference_id, 'none') || ')'
       from transactions t where t.type = 'purchase' and not exists (select 1 from purchases p where p.id = t.reference_id)`,
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'purchase_matches_ledger' as const,
    detail: `${row.id}: ${row.detail}`,
  }));
}

/** Keeps an audit's verdict (the schedule calls this after each run). */
export async function recordLedgerAudit(em: EntityManager, report: LedgerAuditReport): Promise<void> {
  await em.execute('insert into ledger_audits (balances_checked, violations, report) values (?, ?, ?)', [
    report.balancesChecked,
    report.violations.length,
    JSON.stringify(report),
  ]);
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
