import { newId, TRANSACTION_TYPES, type EntityManager, type TransactionType } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import { InsufficientCreditsError, MonthlyLimitReachedError, ValidationError } from './errors';
import { isoTimestamp, MEXICO_CITY } from './time';
import { assertAccountWideKey } from './merchants/merchant-access';
import type { Scope } from './scope';
import { Conditions, keysetPage, listAnswer } from './pagination';
import { noteLowBalanceCrossing } from './balance-alerts';

export interface LedgerScope {
  accountId: string;
  livemode: boolean;
}

export interface TransactionView {
  id: string;
  object: 'transaction';
  livemode: boolean;
  type: TransactionType;
  deltaCentavos: number;
  balanceAfterCentavos: number;
  referenceType: string | null;
  referenceId: string | null;
  note: string | null;
  createdAt: string;
}

interface TransactionRow {
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

export function toTransactionView(row: TransactionRow): TransactionView {
  return {
    id: row.id,
    object: 'transaction',
    livemode: row.livemode,
    type: row.type,
    deltaCentavos: Number(row.delta_centavos),
    balanceAfterCentavos: Number(row.balance_after_centavos),
    referenceType: row.reference_type,
    referenceId: row.reference_id,
    note: row.note,
    createdAt: isoTimestamp(row.created_at),
  };
}

export interface LedgerEntry {
  type: TransactionType;
  deltaCentavos: number;
  referenceType?: string | null;
  referenceId?: string | null;
  note?: string | null;
  reversalOf?: string | null;
}

/** The calendar month (Mexico City) a ledger entry made now counts in. */
const CURRENT_MONTH = `date_trunc('month', now() at time zone '${MEXICO_CITY}')::date`;

/** How each entry type moves the month's timbre count (the cap and the volume price read it). */
const TIMBRES_DELTA: Partial<Record<TransactionType, number>> = { consume: 1, refund: -1 };

/**
 * Applies one signed change to a balance and records it, in a single statement: the conditional UPDATE
 * takes the row lock, so concurrent writers serialise, `balanceAfterCentavos` is exact and the balance can
 * never go negative. Consumes and refunds also move this month's `monthly_usage` row, after the balance row
 * (the usage CTE reads `changed`), so every writer takes the two locks in the same order. Returns null when the
 * change would make the balance negative.
 */
export async function tryPostEntry(
  em: EntityManager,
  scope: LedgerScope,
  entry: LedgerEntry,
): Promise<TransactionView | null> {
  if (!Number.isSafeInteger(entry.deltaCentavos))
    throw new Error(`delta must be an integer, got ${entry.deltaCentavos}`);
  const timbres = TIMBRES_DELTA[entry.type] ?? 0;
  const rows: TransactionRow[] = await em.execute(
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
      timbres,
      -entry.deltaCentavos,
      timbres,
      newId('txn'),
      scope.accountId,
      scope.livemode,
      entry.type,
      entry.deltaCentavos,
      entry.referenceType ?? null,
      entry.referenceId ?? null,
      entry.note ?? null,
      entry.reversalOf ?? null,
    ],
  );
  if (!rows[0]) return null;
  // A debit may take the balance below its low-balance warning (queued once per crossing), a credit back above it.
  await noteLowBalanceCrossing(em, scope);
  return toTransactionView(rows[0]);
}

/** Opens the balance of a new (account, mode) with its first ledger entry (`seed` or zero). */
export async function openBalance(
  em: EntityManager,
  scope: LedgerScope,
  seedCentavos: number,
): Promise<void> {
  await em.execute(
    `insert into balances (account_id, livemode, balance_centavos) values (?, ?, 0) on conflict do nothing`,
    [scope.accountId, scope.livemode],
  );
  if (seedCentavos > 0) {
    await tryPostEntry(em, scope, {
      type: 'seed',
      deltaCentavos: seedCentavos,
      note: 'Initial test balance',
    });
  }
}

export async function getBalanceCentavos(em: EntityManager, scope: LedgerScope): Promise<number> {
  const rows: { balance_centavos: string }[] = await em.execute(
    'select balance_centavos from balances where account_id = ? and livemode = ?',
    [scope.accountId, scope.livemode],
  );
  return Number(rows[0]?.balance_centavos ?? 0);
}

/** Timbres consumed this calendar month (Mexico City), net of refunds. */
export async function timbresThisMonth(em: EntityManager, scope: LedgerScope): Promise<number> {
  const rows: { timbres: number }[] = await em.execute(
    `select timbres from monthly_usage where account_id = ? and livemode = ? and month = ${CURRENT_MONTH}`,
    [scope.accountId, scope.livemode],
  );
  return rows[0]?.timbres ?? 0;
}

export interface PriceTier {
  /** The tier applies once this many timbres have been used in the month. */
  fromTimbres: number;
  pricePerTimbreCentavos: number;
}

/** The volume tier a month with `usedThisMonth` timbres is in, and the next one (null at the top). */
function priceTiersAt(
  config: Pick<Config, 'priceTiers'>,
  usedThisMonth: number,
): { current: PriceTier; next: PriceTier | null } {
  const tiers = config.priceTiers.map((t) => ({ fromTimbres: t.from, pricePerTimbreCentavos: t.centavos }));
  const index = tiers.findLastIndex((t) => usedThisMonth >= t.fromTimbres);
  return { current: tiers[index]!, next: tiers[index + 1] ?? null };
}

function priceForTimbre(config: Pick<Config, 'priceTiers'>, usedThisMonth: number): number {
  return priceTiersAt(config, usedThisMonth).current.pricePerTimbreCentavos;
}

export interface BalanceView {
  object: 'balance';
  livemode: boolean;
  balanceCentavos: number;
  currency: 'MXN';
  pricePerTimbreCentavos: number;
  timbresRemaining: number;
  /** Not in the spec's Balance: what a top-up buys (timbres used this month, the volume tier and the next one). */
  timbresThisMonth: number;
  currentTier: PriceTier;
  nextTier: PriceTier | null;
}

export async function retrieveBalance(
  em: EntityManager,
  config: Pick<Config, 'priceTiers'>,
  scope: LedgerScope,
): Promise<BalanceView> {
  const [balance, used] = await Promise.all([getBalanceCentavos(em, scope), timbresThisMonth(em, scope)]);
  const tiers = priceTiersAt(config, used);
  const price = tiers.current.pricePerTimbreCentavos;
  return {
    object: 'balance',
    livemode: scope.livemode,
    balanceCentavos: balance,
    currency: 'MXN',
    pricePerTimbreCentavos: price,
    timbresRemaining: Math.floor(balance / price),
    timbresThisMonth: used,
    currentTier: tiers.current,
    nextTier: tiers.next,
  };
}

/**
 * Reserves one timbre for a stamp or a cancellation: a `consume` entry at the current tier price.
 * The balance row is locked first so the monthly count, the cap check and the debit are one atomic step.
 * The monthly cap limits stamping only (the spec's Limits): a cancellation, often a legal duty, is never held back
 * by it, though it counts towards the month's usage and is priced by it like any timbre.
 */
export async function reserveTimbre(
  em: EntityManager,
  config: Pick<Config, 'priceTiers'>,
  scope: LedgerScope,
  reference: { type: string; id: string },
): Promise<TransactionView> {
  return withinTransaction(em, async (tx) => {
    const locked: { balance_centavos: string; monthly_cap: number | null; used: number }[] = await tx.execute(
      `select b.balance_centavos, a.monthly_cap, coalesce(u.timbres, 0) as used
         from balances b join accounts a on a.id = b.account_id
         left join monthly_usage u on u.account_id = b.account_id and u.livemode = b.livemode and u.month = ${CURRENT_MONTH}
        where b.account_id = ? and b.livemode = ? for update of b`,
      [scope.accountId, scope.livemode],
    );
    const row = locked[0];
    if (!row) throw new InsufficientCreditsError(0, priceForTimbre(config, 0));
    const capped = reference.type !== 'cancellation';
    if (capped && row.monthly_cap !== null && row.used >= row.monthly_cap)
      throw new MonthlyLimitReachedError(row.monthly_cap);
    const price = priceForTimbre(config, row.used);
    const entry = await tryPostEntry(tx, scope, {
      type: 'consume',
      deltaCentavos: -price,
      referenceType: reference.type,
      referenceId: reference.id,
    });
    if (!entry) throw new InsufficientCreditsError(Number(row.balance_centavos), price);
    return entry;
  });
}

/** Runs in the caller's transaction when there is one (a savepoint would only cost round trips), else in a new one. */
function withinTransaction<T>(em: EntityManager, work: (tx: EntityManager) => Promise<T>): Promise<T> {
  return em.isInTransaction() ? work(em) : em.transactional(work);
}

/**
 * Returns a reservation. Idempotent: the unique `reversal_of` makes a second refund of the same consume a no-op
 * that returns the first refund.
 */
export async function refundReservation(
  em: EntityManager,
  scope: LedgerScope,
  consumeId: string,
  note?: string,
): Promise<TransactionView> {
  return withinTransaction(em, async (tx) => {
    const consumes: TransactionRow[] = await tx.execute(
      `select * from transactions where id = ? and account_id = ? and livemode = ? and type = 'consume' for update`,
      [consumeId, scope.accountId, scope.livemode],
    );
    const consume = consumes[0];
    if (!consume) throw new Error(`no consume ${consumeId} in scope`);
    const existing: TransactionRow[] = await tx.execute(`select * from transactions where reversal_of = ?`, [
      consumeId,
    ]);
    if (existing[0]) return toTransactionView(existing[0]);
    const refund = await tryPostEntry(tx, scope, {
      type: 'refund',
      deltaCentavos: -Number(consume.delta_centavos),
      referenceType: consume.reference_type,
      referenceId: consume.reference_id,
      note: note ?? null,
      reversalOf: consumeId,
    });
    if (!refund) throw new Error('a refund cannot make a balance negative');
    return refund;
  });
}

/** An operator's correction or a free test-mode top-up; always carries a note. */
export async function adjustBalance(
  em: EntityManager,
  scope: LedgerScope,
  input: { type: 'adjustment' | 'recharge'; deltaCentavos: number; note: string },
): Promise<TransactionView> {
  if (!input.note.trim()) throw ValidationError.field('/note', 'An adjustment needs a note explaining it.');
  if (input.type === 'recharge' && (scope.livemode || input.deltaCentavos <= 0)) {
    throw ValidationError.field('/deltaCentavos', 'Recharges are free top-ups of the test balance only.');
  }
  const entry = await tryPostEntry(em, scope, {
    type: input.type,
    deltaCentavos: input.deltaCentavos,
    note: input.note,
  });
  if (!entry)
    throw ValidationError.field('/deltaCentavos', 'The adjustment would make the balance negative.');
  return entry;
}

export interface ListTransactionsInput {
  limit: number;
  startingAfter?: string;
  type?: TransactionType;
}

export async function listTransactions(
  em: EntityManager,
  scope: LedgerScope & Pick<Scope, 'merchantIds'>,
  input: ListTransactionsInput,
) {
  assertAccountWideKey(scope, "the account's ledger");
  if (input.type && !TRANSACTION_TYPES.includes(input.type))
    throw ValidationError.field('/type', 'Unknown transaction type.');
  const where = new Conditions();
  if (input.type) where.add('type = ?', input.type);
  // The ledger's order is its sequence: transactions posted in one millisecond keep the order they were posted in.
  const page = await keysetPage<TransactionRow>(
    em,
    {
      select: 'select * from transactions',
      table: 'transactions',
      key: 'seq',
      scope,
      where,
      noun: 'transaction',
    },
    input,
  );
  return listAnswer(page, toTransactionView);
}

export interface UsageMonthView {
  object: 'usage_month';
  month: string;
  livemode: boolean;
  timbres: number;
  spentCentavos: number;
}

/** Net timbres and spend per calendar month (Mexico City), newest month first: the rollup the ledger keeps. */
export async function listUsage(em: EntityManager, scope: LedgerScope, limit: number) {
  const rows: { month: string; timbres: number; spent: string }[] = await em.execute(
    `select to_char(month, 'YYYY-MM') as month, timbres, spent_centavos as spent
       from monthly_usage where account_id = ? and livemode = ? order by month desc limit ?`,
    [scope.accountId, scope.livemode, limit],
  );
  const data: UsageMonthView[] = rows.map((r) => ({
    object: 'usage_month',
    month: r.month,
    livemode: scope.livemode,
    timbres: Number(r.timbres),
    spentCentavos: Number(r.spent),
  }));
  return { object: 'list' as const, data };
}
