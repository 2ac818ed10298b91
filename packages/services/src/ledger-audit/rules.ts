import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from '../time';
import type { LedgerViolation } from './report';

/**
 * How much of the ledger a rule reads: everything (a full audit), or the entries past a seq. An incremental audit
 * passes the seqs that bound what can have changed since its previous run (see `auditLedger`).
 */
export interface RuleWindow {
  /** Refunds written after this seq. */
  refundsAfterSeq: string;
  /** Documents whose reservation was written after this seq. */
  outcomesAfterSeq: string;
  /** Months from this one (YYYY-MM-01, Mexico City), from the entries after `usageAfterSeq`. */
  usageFromMonth: string | null;
  usageAfterSeq: string;
}

export const WHOLE_LEDGER: RuleWindow = {
  refundsAfterSeq: '0',
  outcomesAfterSeq: '0',
  usageFromMonth: null,
  usageAfterSeq: '0',
};

/** Every refund returns exactly what its consume took. */
export async function refundViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const rows: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select r.account_id, r.livemode, r.id from transactions r join transactions c on c.id = r.reversal_of
      where r.seq > ? and r.type = 'refund' and (c.type <> 'consume' or r.delta_centavos <> -c.delta_centavos)`,
    [window.refundsAfterSeq],
  );
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
  // The whole table, or the documents whose reservation or refund is recent (found through the seq index).
  const after = BigInt(window.outcomesAfterSeq);
  const inWindow =
    after === 0n
      ? 'true'
      : `d.id in (select rd.id from transactions rt join documents rd on rd.reservation_id = rt.id where rt.seq > ${after}
                  union
                  select fd.id from transactions ft join documents fd on fd.reservation_id = ft.reversal_of
                   where ft.seq > ${after} and ft.type = 'refund')`;
  const rows: {
    account_id: string;
    livemode: boolean;
    id: string;
    reservation_state: string;
    refunds: number;
  }[] = await em.execute(
    `select d.account_id, d.livemode, d.id, d.reservation_state,
              (select count(*)::int from transactions r where r.reversal_of = d.reservation_id) as refunds
         from documents d
        where ${inWindow} and d.reservation_id is not null
          and ((d.reservation_state = 'refunded') <> exists (select 1 from transactions r where r.reversal_of = d.reservation_id)
               or (d.reservation_state = 'confirmed' and d.status not in ('stamped', 'cancel_pending', 'cancelled')))`,
  );
  return rows.map((row) => ({
    accountId: row.account_id,
    livemode: row.livemode,
    rule: 'outcome_matches_ledger' as const,
    detail: `${row.id}: reservation ${row.reservation_state} with ${row.refunds} refund(s)`,
  }));
}

/** Each month's timbre count and spend (which the cap, the volume price and usage read) equal the ledger's. */
export async function usageViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const month = `date_trunc('month', created_at at time zone '${MEXICO_CITY}')::date`;
  const fromMonth = window.usageFromMonth;
  const rows: {
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
       from (select * from monthly_usage where ?::date is null or month >= ?::date) u
       full join (select account_id, livemode, ${month} as month,
                         sum(case type when 'consume' then 1 else -1 end)::int as timbres, -sum(delta_centavos) as spent
                    from transactions
                   where seq > ? and type in ('consume', 'refund') and (?::date is null or ${month} >= ?::date)
                   group by 1, 2, 3) l
         on l.account_id = u.account_id and l.livemode = u.livemode and l.month = u.month
      where u.timbres is distinct from l.timbres or u.spent_centavos is distinct from l.spent`,
    [fromMonth, fromMonth, window.usageAfterSeq, fromMonth, fromMonth],
  );
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
  const stale: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select account_id, livemode, id from documents
      where reservation_state = 'reserved' and status <> 'draft' and not needs_reconciliation and created_at < now() - make_interval(hours => ?)`,
    [staleAfterHours],
  );
  const staleCancellations: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select account_id, livemode, id from documents
      where status = 'stamped' and cancellation->>'status' = 'pending' and updated_at < now() - make_interval(hours => ?)`,
    [staleAfterHours],
  );
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
