/**
 * The ledger aggregate's SQL (balances, their entries in `transactions`, the monthly usage rollup and the low-balance
 * warnings), parameters bound by the driver. Services call these functions and never write SQL on these tables
 * themselves. The audit's reads are in ledger-audit/ledger-audit-repository.ts, Stripe purchases in
 * billing/purchase-repository.ts.
 */
import { newId, type EntityManager, type TransactionType } from '@cfdi/db';
import { MEXICO_CITY } from './time';
import {
  Conditions,
  countedPage,
  keysetPage,
  type CountedPage,
  type ListWindow,
  type Page,
  type PageRequest,
} from './pagination';
import { firstRow } from './sql';

type BalanceScope = { accountId: string; livemode: boolean };

export interface TransactionRow {
  id: string;
  livemode: boolean;
  type: TransactionType;
  delta_centavos: string;
  balance_after_centavos: string;
  reference_type: string | null;
  reference_id: string | null;
  note: string | null;
  created_at: Date | string;
}

/** The calendar month (Mexico City) a ledger entry made now counts in. */
const CURRENT_MONTH = `date_trunc('month', now() at time zone '${MEXICO_CITY}')::date`;

export interface EntryInsert {
  type: TransactionType;
  deltaCentavos: number;
  /** How the entry moves the month's timbre count (the cap and the volume price read it). */
  timbres: number;
  referenceType: string | null;
  referenceId: string | null;
  note: string | null;
  reversalOf: string | null;
}

/**
 * Applies one signed change to a balance and records it, in a single statement: the conditional UPDATE takes the
 * row lock, so concurrent writers serialise, `balance_after_centavos` is exact and the balance can never go
 * negative. An entry with timbres also moves this month's `monthly_usage` row, after the balance row (the usage CTE
 * reads `changed`), so every writer takes the two locks in the same order. Undefined when the change would make the
 * balance negative.
 */
export async function insertEntry(
  em: EntityManager,
  scope: BalanceScope,
  entry: EntryInsert,
): Promise<TransactionRow | undefined> {
  return firstRow<TransactionRow>(
    em,
    `with changed as (
       update balances set balance_centavos = balance_centavos + ?, updated_at = now()
        where account_id = ? and livemode = ? and balance_centavos + ? >= 0
        returning balance_centavos
     ), usage as (
       insert into monthly_usage (account_id, livemode, month, timbres, spent_centavos)
       select ?, ?, ${CURRENT_MONTH}, ?, ? from changed where ? <> 0
       on conflict (account_id, livemode, month) do update
         set timbres = monthly_usage.timbres + excluded.timbres,
             spent_centavos = monthly_usage.spent_centavos + excluded.spent_centavos
     )
     insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos,
                               reference_type, reference_id, note, reversal_of)
     select ?, ?, ?, ?, ?, changed.balance_centavos, ?, ?, ?, ? from changed
     returning id, livemode, type, delta_centavos, balance_after_centavos, reference_type, reference_id, note, created_at`,
    [
      entry.deltaCentavos,
      scope.accountId,
      scope.livemode,
      entry.deltaCentavos,
      scope.accountId,
      scope.livemode,
      entry.timbres,
      -entry.deltaCentavos,
      entry.timbres,
      newId('txn'),
      scope.accountId,
      scope.livemode,
      entry.type,
      entry.deltaCentavos,
      entry.referenceType,
      entry.referenceId,
      entry.note,
      entry.reversalOf,
    ],
  );
}

/** The (account, mode)'s balance row at zero, unless it exists. */
export async function insertBalance(em: EntityManager, scope: BalanceScope): Promise<void> {
  await em.execute(
    `insert into balances (account_id, livemode, balance_centavos) values (?, ?, 0) on conflict do nothing`,
    [scope.accountId, scope.livemode],
  );
}

export async function selectBalanceCentavos(em: EntityManager, scope: BalanceScope): Promise<number> {
  const rows: { balance_centavos: string }[] = await em.execute(
    'select balance_centavos from balances where account_id = ? and livemode = ?',
    [scope.accountId, scope.livemode],
  );
  return Number(rows[0]?.balance_centavos ?? 0);
}

/** Timbres consumed this calendar month (Mexico City), net of refunds. */
export async function selectTimbresThisMonth(em: EntityManager, scope: BalanceScope): Promise<number> {
  const rows: { timbres: number }[] = await em.execute(
    `select timbres from monthly_usage where account_id = ? and livemode = ? and month = ${CURRENT_MONTH}`,
    [scope.accountId, scope.livemode],
  );
  return rows[0]?.timbres ?? 0;
}

/**
 * Locks the balance row and reads it with the account's monthly cap and this month's timbres (one step with the
 * debit that follows in the same transaction). Undefined when the balance does not exist.
 */
export async function lockBalanceForReservation(
  em: EntityManager,
  scope: BalanceScope,
): Promise<{ balance_centavos: string; monthly_cap: number | null; used: number } | undefined> {
  return firstRow<{ balance_centavos: string; monthly_cap: number | null; used: number }>(
    em,
    `select b.balance_centavos, a.monthly_cap, coalesce(u.timbres, 0) as used
       from balances b join accounts a on a.id = b.account_id
       left join monthly_usage u on u.account_id = b.account_id and u.livemode = b.livemode and u.month = ${CURRENT_MONTH}
      where b.account_id = ? and b.livemode = ? for update of b`,
    [scope.accountId, scope.livemode],
  );
}

/** The consume of the scope with this id, locked; undefined when there is none. */
export async function lockConsume(
  em: EntityManager,
  scope: BalanceScope,
  consumeId: string,
): Promise<TransactionRow | undefined> {
  return firstRow<TransactionRow>(
    em,
    `select * from transactions where id = ? and account_id = ? and livemode = ? and type = 'consume' for update`,
    [consumeId, scope.accountId, scope.livemode],
  );
}

/** The entry that reverses this one, if any. */
export async function selectReversalOf(
  em: EntityManager,
  entryId: string,
): Promise<TransactionRow | undefined> {
  return firstRow<TransactionRow>(em, `select * from transactions where reversal_of = ?`, [entryId]);
}

/** The ledger's order is its sequence: transactions posted in one millisecond keep the order they were posted in. */
export function transactionKeysetPage(
  em: EntityManager,
  scope: BalanceScope,
  filters: { type?: TransactionType },
  page: PageRequest,
): Promise<Page<TransactionRow>> {
  const where = new Conditions();
  if (filters.type) where.add('type = ?', filters.type);
  return keysetPage<TransactionRow>(
    em,
    {
      select: 'select * from transactions',
      table: 'transactions',
      key: 'seq',
      scope,
      where,
      noun: 'transaction',
    },
    page,
  );
}

/** Net timbres and spend per calendar month, newest month first. */
export function selectUsageMonths(
  em: EntityManager,
  scope: BalanceScope,
  limit: number,
): Promise<{ month: string; timbres: number; spent: string }[]> {
  return em.execute(
    `select to_char(month, 'YYYY-MM') as month, timbres, spent_centavos as spent
       from monthly_usage where account_id = ? and livemode = ? order by month desc limit ?`,
    [scope.accountId, scope.livemode, limit],
  );
}

export interface LowBalanceRow {
  balance_centavos: string;
  low_balance_centavos: string | null;
  low_balance_email: string | null;
}

export async function selectLowBalance(
  em: EntityManager,
  scope: BalanceScope,
): Promise<LowBalanceRow | undefined> {
  return firstRow<LowBalanceRow>(
    em,
    `select balance_centavos, low_balance_centavos, low_balance_email from balances
        where account_id = ? and livemode = ?`,
    [scope.accountId, scope.livemode],
  );
}

/** Sets (null: removes) the warning; the balance's current side of the threshold is taken as it is. */
export async function updateLowBalance(
  em: EntityManager,
  scope: BalanceScope,
  thresholdCentavos: number | null,
  email: string | null,
): Promise<void> {
  await em.execute(
    `update balances set low_balance_centavos = ?, low_balance_email = ?,
            low_balance_alerted = coalesce(balance_centavos < ?, false)
      where account_id = ? and livemode = ?`,
    [thresholdCentavos, email, thresholdCentavos, scope.accountId, scope.livemode],
  );
}

/**
 * Flips the balance's "below" flag when it crossed the threshold, and queues the warning when it went below, in
 * one statement, conditional on the flag under the row lock. The queued alert's id, or null.
 */
export async function flipLowBalanceFlag(em: EntityManager, scope: BalanceScope): Promise<string | null> {
  const rows: { id: string }[] = await em.execute(
    `with flipped as (
       update balances set low_balance_alerted = balance_centavos < low_balance_centavos
        where account_id = ? and livemode = ? and low_balance_centavos is not null
          and low_balance_alerted <> (balance_centavos < low_balance_centavos)
        returning account_id, livemode, balance_centavos, low_balance_centavos, low_balance_email, low_balance_alerted
     )
     insert into balance_alerts (id, account_id, livemode, balance_centavos, threshold_centavos, recipients, status)
     select ?, account_id, livemode, balance_centavos, low_balance_centavos, array[low_balance_email], 'queued'
       from flipped where low_balance_alerted and low_balance_email is not null
     returning id`,
    [scope.accountId, scope.livemode, newId('bal')],
  );
  return rows[0]?.id ?? null;
}

export interface QueuedBalanceAlert {
  id: string;
  recipients: string[];
  balance_centavos: string;
  threshold_centavos: string;
  livemode: boolean;
  /** The account's name. */
  name: string;
}

/** The oldest queued warning, locked (concurrent senders skip it), with its account's name. */
export async function lockNextQueuedAlert(em: EntityManager): Promise<QueuedBalanceAlert | undefined> {
  return firstRow<QueuedBalanceAlert>(
    em,
    `select b.id, b.recipients, b.balance_centavos, b.threshold_centavos, b.livemode, a.name
       from balance_alerts b join accounts a on a.id = b.account_id
      where b.status = 'queued' order by b.id limit 1 for update of b skip locked`,
  );
}

export async function recordAlertSent(
  em: EntityManager,
  id: string,
  sent: boolean,
  smtpResponse: string | null,
): Promise<void> {
  await em.execute(
    `update balance_alerts set status = ?, smtp_response = ?, sent_at = case when ? then now() end where id = ?`,
    [sent ? 'sent' : 'failed', smtpResponse, sent, id],
  );
}

/** A search of the ledger (the console's): the fields are checked by the caller. */
export interface TransactionSearch {
  type?: TransactionType;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  reference?: string;
}

/** The search as SQL conditions on `transactions` (unqualified columns). */
function searchConditions(
  scope: BalanceScope,
  search: TransactionSearch,
): { where: string; params: unknown[] } {
  const where = ['account_id = ?', 'livemode = ?'];
  const params: unknown[] = [scope.accountId, scope.livemode];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (search.type) add('type = ?', search.type);
  if (search.from) add(`created_at >= (?::date)::timestamp at time zone '${MEXICO_CITY}'`, search.from);
  if (search.to) add(`created_at < (?::date + 1)::timestamp at time zone '${MEXICO_CITY}'`, search.to);
  if (search.reference) add('reference_id = ?', search.reference.trim());
  return { where: where.join(' and '), params };
}

/** The matching transactions, newest first; `limit` null: all of them. */
export function selectTransactions(
  em: EntityManager,
  scope: BalanceScope,
  search: TransactionSearch,
  limit: number | null,
): Promise<TransactionRow[]> {
  const { where, params } = searchConditions(scope, search);
  return em.execute(
    `select * from transactions where ${where} order by seq desc${limit === null ? '' : ' limit ?'}`,
    limit === null ? params : [...params, limit],
  );
}

/** One numbered page of the matching transactions, newest first, and how many there are. */
export function transactionCountedPage(
  em: EntityManager,
  scope: BalanceScope,
  search: TransactionSearch,
  window: ListWindow,
): Promise<CountedPage<TransactionRow>> {
  const { where, params } = searchConditions(scope, search);
  return countedPage<TransactionRow>(
    em,
    `select * from transactions where ${where} order by seq desc`,
    params,
    window,
  );
}

/**
 * One batch of the matching transactions for people (amounts in pesos, Mexico City's wall clock, the UUID and
 * serie-folio of the document referred to), newest first, before `seq` `before` when given.
 */
export function selectLedgerCsvBatch(
  em: EntityManager,
  scope: BalanceScope,
  search: TransactionSearch,
  before: string | null,
  batch: number,
): Promise<(Record<string, string | null> & { seq: string })[]> {
  const { where, params } = searchConditions(scope, search);
  return em.execute(
    `select t.seq::text as seq, t.id, t.type, t.reference_type, t.reference_id, t.note,
            to_char(t.created_at at time zone '${MEXICO_CITY}', 'YYYY-MM-DD HH24:MI:SS') as local_time,
            (t.delta_centavos / 100.0)::numeric(20, 2)::text as amount,
            (t.balance_after_centavos / 100.0)::numeric(20, 2)::text as balance_after,
            d.uuid, d.serie || '-' || coalesce(d.folio_text, d.folio::text) as serie_folio
       from (select * from transactions where ${where}${before === null ? '' : ' and seq < ?'}
              order by seq desc limit ?) t
       left join documents d on d.id = t.reference_id and d.account_id = t.account_id
      order by t.seq desc`,
    [...params, ...(before === null ? [] : [before]), batch],
  );
}
