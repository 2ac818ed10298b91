/**
 * The ledger audit's SQL: each rule's read (the audit checks the ledger against the documents and purchases, so its
 * reads join them; it writes only its own tables), the recorded audits and the balances' checkpoints. Parameters are
 * bound by the driver; the window's bounds are numbers and dates the audit computed, never input.
 */
import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from '../time';
import type { LedgerAuditMode, LedgerAuditReport, LedgerCheckpoint } from './report';
import { anyRow, firstRow } from '../sql';

/**
 * How much of the ledger a rule reads: everything (a full audit), or per balance what can have changed since the
 * previous run (an incremental audit, see `auditLedger`): refunds after the balance's checkpoint, reservations and
 * refunds of the last `outcomeHours`, usage from `usageFromMonth` (YYYY-MM-01, Mexico City).
 */
export type RuleWindow = { whole: true } | { whole: false; outcomeHours: number; usageFromMonth: string };

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

/** The refunds that do not mirror their consume. */
export function refundMismatches(
  em: EntityManager,
  window: RuleWindow,
): Promise<{ account_id: string; livemode: boolean; id: string }[]> {
  const refunds = window.whole ? 'transactions' : entriesAfter(checkpointSeq, "t.type = 'refund'");
  return em.execute(
    `select r.account_id, r.livemode, r.id from ${refunds} r
      where r.type = 'refund'
        and exists (select 1 from transactions c where c.id = r.reversal_of
                     and (c.type <> 'consume' or r.delta_centavos <> -c.delta_centavos))`,
  );
}

/** The documents whose reservation's outcome disagrees with the ledger. */
export function outcomeMismatches(
  em: EntityManager,
  window: RuleWindow,
): Promise<
  {
    account_id: string;
    livemode: boolean;
    id: string;
    reservation_state: string;
    refunds: number;
  }[]
> {
  // The whole table, or the documents whose reservation (a consume) or its refund is recent, each found through
  // documents_reservation_idx.
  const documents = window.whole
    ? 'documents d'
    : `(select distinct coalesce(e.reversal_of, e.id) as reservation_id
          from ${entriesAfter(lastSeqBefore(`now() - make_interval(hours => ${Number(window.outcomeHours)})`), "t.type in ('consume', 'refund')")} e) r
       cross join lateral (select * from documents d where d.reservation_id = r.reservation_id offset 0) d`;
  return em.execute(
    `select d.account_id, d.livemode, d.id, d.reservation_state,
            (select count(*)::int from transactions r where r.reversal_of = d.reservation_id) as refunds
       from ${documents}
      where d.reservation_id is not null
        and ((d.reservation_state = 'refunded') <> exists (select 1 from transactions r where r.reversal_of = d.reservation_id)
             or (d.reservation_state = 'confirmed' and d.status not in ('stamped', 'cancel_pending', 'cancelled')))`,
  );
}

/** The months whose counted timbres or spend differ from the ledger's. */
export function usageMismatches(
  em: EntityManager,
  window: RuleWindow,
): Promise<
  {
    account_id: string;
    livemode: boolean;
    month: string;
    counted: number | null;
    ledger: number | null;
    counted_spent: string | null;
    ledger_spent: string | null;
  }[]
> {
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
  return em.execute(
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
}

/** The documents reserved, or cancellations pending, for longer than `staleAfterHours`. */
export async function staleReservations(
  em: EntityManager,
  staleAfterHours: number,
): Promise<{
  stale: { account_id: string; livemode: boolean; id: string }[];
  staleCancellations: { account_id: string; livemode: boolean; id: string }[];
}> {
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
  return { stale, staleCancellations };
}

/** The purchases whose ledger entries are not one `purchase` entry of what Stripe paid, and purchase entries of no purchase. */
export function purchaseMismatches(
  em: EntityManager,
): Promise<{ account_id: string; livemode: boolean; id: string; detail: string }[]> {
  return em.execute(
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
}

export interface BalanceRow {
  account_id: string;
  livemode: boolean;
  balance: string;
  /** Entries read, their Σ delta, the last one's seq and balanceAfter (null when none were read). */
  entries: number;
  total: string;
  last_seq: string | null;
  last_after: string | null;
  /** What the balance was where the read began (a checkpoint, or nothing before the first entry). */
  from_seq: string;
  from_after: string;
  from_sum: string;
  /** Entries whose balanceAfter is not the previous one's plus their delta (incremental audits only). */
  breaks: number;
}

/** Every balance with the Σ, count and last of all its entries. */
export function balanceTotals(em: EntityManager): Promise<BalanceRow[]> {
  return em.execute(
    `select b.account_id, b.livemode, b.balance_centavos as balance, n.entries, n.total, n.last_seq, n.last_after,
            0 as from_seq, 0 as from_after, 0 as from_sum, 0 as breaks
       from balances b
       cross join lateral (select count(*)::int as entries, coalesce(sum(delta_centavos), 0) as total,
                                  max(seq) as last_seq,
                                  (array_agg(balance_after_centavos order by seq desc))[1] as last_after
                             from transactions t where t.account_id = b.account_id and t.livemode = b.livemode) n`,
  );
}

/**
 * Every balance with the Σ, count and last of the entries since its checkpoint, and how many of those do not follow
 * the one before. One statement: one snapshot.
 */
export function balanceTotalsSinceCheckpoints(em: EntityManager): Promise<BalanceRow[]> {
  return em.execute(
    `select b.account_id, b.livemode, b.balance_centavos as balance, n.entries, n.total, n.last_seq, n.last_after,
            coalesce(k.seq, 0) as from_seq, coalesce(k.balance_after_centavos, 0) as from_after,
            coalesce(k.sum_centavos, 0) as from_sum, n.breaks
       from balances b
       left join ledger_audit_checkpoints k on k.account_id = b.account_id and k.livemode = b.livemode
       cross join lateral (
         select count(*)::int as entries, coalesce(sum(x.delta_centavos), 0) as total, max(x.seq) as last_seq,
                (array_agg(x.balance_after_centavos order by x.seq desc))[1] as last_after,
                (count(*) filter (where x.balance_after_centavos <> x.before + x.delta_centavos))::int as breaks
           from (select t.seq, t.delta_centavos, t.balance_after_centavos,
                        coalesce(lag(t.balance_after_centavos) over (order by t.seq), k.balance_after_centavos, 0) as before
                   from transactions t
                  where t.account_id = b.account_id and t.livemode = b.livemode and t.seq > coalesce(k.seq, 0)) x
       ) n`,
  );
}

/** One read-only snapshot for the whole audit, without JIT (see `auditLedger`). */
export async function startAuditSnapshot(em: EntityManager, mode: LedgerAuditMode): Promise<void> {
  await em.execute('set transaction isolation level repeatable read, read only');
  await em.execute('set local jit = off');
  // An incremental audit reads each balance's entries after a seq it only learns at run time: the planner cannot
  // tell how few that is and, past a million entries, scans the whole table once per balance (5 s at 2.2M entries
  // against 1.2 s through the indexes). Its reads are index range scans by design.
  if (mode === 'incremental') await em.execute('set local enable_seqscan = off');
}

/** Whether a full audit was recorded in the last `hours`. */
export async function fullAuditSince(em: EntityManager, hours: number): Promise<boolean> {
  return anyRow(
    em,
    `select 1 from ledger_audits where mode = 'full' and created_at > now() - make_interval(hours => ?) limit 1`,
    [hours],
  );
}

/** The first day of last month (Mexico City), YYYY-MM-DD. */
export async function lastMonthStart(em: EntityManager): Promise<string> {
  const [bounds]: { last_month: string }[] = await em.execute(
    `select to_char(date_trunc('month', now() at time zone '${MEXICO_CITY}') - interval '1 month', 'YYYY-MM-DD')
              as last_month`,
  );
  return bounds!.last_month;
}

export async function insertLedgerAudit(em: EntityManager, report: LedgerAuditReport): Promise<void> {
  await em.execute(
    'insert into ledger_audits (mode, balances_checked, violations, report) values (?, ?, ?, ?)',
    [report.mode, report.balancesChecked, report.violations.length, JSON.stringify(report)],
  );
}

/** Moves the balances' checkpoints (one statement for all). */
export async function upsertCheckpoints(em: EntityManager, checkpoints: LedgerCheckpoint[]): Promise<void> {
  await em.execute(
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
}

export async function selectLatestAudit(
  em: EntityManager,
): Promise<{ created_at: Date; balances_checked: number; violations: number } | undefined> {
  return firstRow<{ created_at: Date; balances_checked: number; violations: number }>(
    em,
    'select created_at, balances_checked, violations from ledger_audits order by id desc limit 1',
  );
}
