import { TRANSACTION_TYPES, type EntityManager, type TransactionType } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import { InsufficientCreditsError, MonthlyLimitReachedError, ValidationError } from './errors';
import { isoTimestamp } from './time';
import { assertAccountWideKey } from './merchants/merchant-access';
import type { Scope } from './scope';
import { listAnswer } from './pagination';
import {
  insertBalance,
  insertEntry,
  lockBalanceForReservation,
  lockConsume,
  selectBalanceCentavos,
  selectReversalOf,
  selectTimbresThisMonth,
  selectUsageMonths,
  transactionKeysetPage,
  type TransactionRow,
} from './ledger-repository';
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

/** How each entry type moves the month's timbre count (the cap and the volume price read it). */
const TIMBRES_DELTA: Partial<Record<TransactionType, number>> = { consume: 1, refund: -1 };

/**
 * Applies one signed change to a balance and records it, in a single statement (`insertEntry`): concurrent writers
 * serialise on the balance row, `balanceAfterCentavos` is exact and the balance can never go negative. Consumes and
 * refunds also move this month's `monthly_usage` row. Returns null when the change would make the balance negative.
 */
export async function tryPostEntry(
  em: EntityManager,
  scope: LedgerScope,
  entry: LedgerEntry,
): Promise<TransactionView | null> {
  if (!Number.isSafeInteger(entry.deltaCentavos))
    throw new Error(`delta must be an integer, got ${entry.deltaCentavos}`);
  const timbres = TIMBRES_DELTA[entry.type] ?? 0;
  const row = await insertEntry(em, scope, {
    type: entry.type,
    deltaCentavos: entry.deltaCentavos,
    timbres,
    referenceType: entry.referenceType ?? null,
    referenceId: entry.referenceId ?? null,
    note: entry.note ?? null,
    reversalOf: entry.reversalOf ?? null,
  });
  if (!row) return null;
  // A debit may take the balance below its low-balance warning (queued once per crossing), a credit back above it.
  await noteLowBalanceCrossing(em, scope);
  return toTransactionView(row);
}

/** Opens the balance of a new (account, mode) with its first ledger entry (`seed` or zero). */
export async function openBalance(
  em: EntityManager,
  scope: LedgerScope,
  seedCentavos: number,
): Promise<void> {
  await insertBalance(em, scope);
  if (seedCentavos > 0) {
    await tryPostEntry(em, scope, {
      type: 'seed',
      deltaCentavos: seedCentavos,
      note: 'Initial test balance',
    });
  }
}

export async function getBalanceCentavos(em: EntityManager, scope: LedgerScope): Promise<number> {
  return selectBalanceCentavos(em, scope);
}

/** Timbres consumed this calendar month (Mexico City), net of refunds. */
export async function timbresThisMonth(em: EntityManager, scope: LedgerScope): Promise<number> {
  return selectTimbresThisMonth(em, scope);
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
    const row = await lockBalanceForReservation(tx, scope);
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
    const consume = await lockConsume(tx, scope, consumeId);
    if (!consume) throw new Error(`no consume ${consumeId} in scope`);
    const existing = await selectReversalOf(tx, consumeId);
    if (existing) return toTransactionView(existing);
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
  const page = await transactionKeysetPage(em, scope, input, input);
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
  const rows = await selectUsageMonths(em, scope, limit);
  const data: UsageMonthView[] = rows.map((r) => ({
    object: 'usage_month',
    month: r.month,
    livemode: scope.livemode,
    timbres: Number(r.timbres),
    spentCentavos: Number(r.spent),
  }));
  return { object: 'list' as const, data };
}
