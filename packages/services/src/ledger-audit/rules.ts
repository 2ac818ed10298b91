import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from '../time';
import type { LedgerViolation } from './report';

/**
 * How much of the ledger a rule reads: everything (a full audit), or per balance what can have changed since the
 * previous run (an incremental audit, see `auditLedger`): refunds after the balance's checkpoint, reservations and
 * refunds of the last `outcomeHours`, usage from `usageFromMonth` (YYYY-MM-01, Mexico City).
 */
export type RuleWindow = { whole: true } | { whole: false; outcomeHours: number; usageFromMonth: string };

export const WHOLE_LEDGER: RuleWindow = { whole: true };

/**
 * The seq of the balance `b`'s newest entry created before `instant` (0 if none). Per balance, because seq follows
 * creation only within one balance (it is assigned under the balance's row lock); walks that balance's entries back
 * from its newest through `transactions_scope_idx`, so its cost is the entries written since.
 */
const lastSeqBefore = (instant: string) =>
  `coalesce((select s.seq from transactions s where s.account_id = b.account_id and s.livemode = b.livemode
                and s.created_at < ${instant} order by s.seq desc limit 1), 0)`;

/** Where the balance `b`'s last clean audit ended (0 if none). */
const checkpointSeq = `coalesce((select c.seq from ledger_audit_checkpoints c
                                  where c.account_id = b.account_id and c.livemode = b.livemode), 0)`;

/**
 * Each balance's entries after `afterSeq` (an expression over the balance `b`) matching `where`: the bound once per
 * balance, then one range scan of the balance's seq index each (`offset 0` keeps the planner from flattening the
 * reads into a join that scans the whole ledger or evaluates the bound per entry).
 */
const entriesAfter = (afterSeq: string, where = 'true') =>
  `(select t.* from (select b.account_id, b.livemode, ${afterSeq} as after_seq from balances b offset 0) k
      cross join lateral (select * from transactions t
                           where t.account_id = k.account_id and t.livemode = k.livemode and t.seq > k.after_seq
                             and ${where} offset 0) t)`;

/** Every refund returns exactly what its consume took. */
export async function refundViolations(em: EntityManager, window: RuleWindow): Promise<LedgerViolation[]> {
  const refunds = window.whole ? 'transactions' : entriesAfter(checkpointSeq, "t.type = 'refund'");
  const rows: { account_id: string; livemode: boolean; id: string }[] = await em.execute(
    `select r.account_id, r.livemode, r.id from ${refunds} r
      where r.type = 'refund'
        and exists (select 1 from transactions c where c.id = r.reversal_of
                     and (c.type <> 'consume' or r.delta_centavos <> -c.delta_centavos))`,
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
  // The whole table, or the documents whose reservation (a consume) or its refund is recent, each found through
  // documents_reservation_idx.
  const documents = window.whole
    ? 'documents d'
    : `(select distinct coalesce(e.reversal_of, e.id) as reservation_id
          from ${entriesAfter(lastSeqBefore(`now() - make_interval(hours => ${Number(window.outcomeHours)})`), "t.type in ('consume', 'refund')")} e) r
       cross join lateral (select * from documents d where d.reservation_id = r.reservation_id offset 0) d`;
  const rows: {
    account_id: string;
    livemode: boolean;
    id: string;
    reservation_state: string;
    refunds: number;
  }[] = await em.execute(
    `select d.account_id, d.livemode, d.id, d.reservation_state,
            (select count(*)::int from transactions r where r.reversal_of = d.reservation_id) as refunds
       from ${documents}
      where d.reservation_id is not null
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
  const month = `date_trunc('month', t.created_at at time zone '${MEXICO_CITY}')::date`;
  // An incremental audit compares the months from `usageFromMonth`, from each balance's entries since a day before
  // that month began (an entry's created_at is its transaction's start, so the day is a margin).
  const [usage, entries, months] = window.whole
    ? ['monthly_usage', 'transactions', 'true']
    : [
        `(select * from monthly_usage where month >= '${window.usageFromMonth}'::date)`,
        entriesAfter(
          lastSeqBefore(
            `(('${window.usageFromMonth}'::timestamp - interval '1 day') at time zone '${MEXICO_CITY}')`,
          ),
          "t.type in ('consume', 'refund')",
        ),
        `${month} >= '${window.usageFromMonth}'::date`,
      ];
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
       from ${usage} u
       full join (select t.account_id, t.livemode, ${month} as month,
                         sum(case t.type when 'consume' then 1 else -1 end)::int as timbres, -sum(t.delta_centavos) as spent
                    from ${entries} t where t.type in ('consume', 'refund') and ${months}
                   group by 1, 2, 3) l
         on l.account_id = u.account_id and l.livemode = u.livemode and l.month = u.month
      where u.timbres is distinct from l.timbres or u.spent_centavos is distinct from l.spent`,
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
