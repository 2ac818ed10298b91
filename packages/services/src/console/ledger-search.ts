import { TRANSACTION_TYPES, type EntityManager, type TransactionType } from '@cfdi/db';
import { ValidationError } from '../errors';
import { toTransactionView, type LedgerScope, type TransactionView } from '../ledger';
import { csvLine } from '../csv';
import { countedPage, type CountedPage, type ListWindow } from '../pagination';
import { MEXICO_CITY } from '../time';

export interface LedgerSearch {
  type?: TransactionType;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  /** A document, purchase or other id the transaction refers to. */
  reference?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkLedgerSearch(search: LedgerSearch): void {
  if (search.type && !TRANSACTION_TYPES.includes(search.type))
    throw ValidationError.field('/type', 'Unknown transaction type.');
  for (const field of ['from', 'to'] as const) {
    if (search[field] && !DATE.test(search[field]!))
      throw ValidationError.field(`/${field}`, 'must be a date (YYYY-MM-DD)');
  }
}

/** The search as SQL conditions on `transactions` (unqualified columns), after checking every field. */
export function ledgerConditions(
  scope: LedgerScope,
  search: LedgerSearch,
): { where: string; params: unknown[] } {
  checkLedgerSearch(search);
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

/** The scope's transactions matching the search, newest first; `limit` null: all of them (the CSV export). */
export async function searchTransactions(
  em: EntityManager,
  scope: LedgerScope,
  search: LedgerSearch,
  limit: number | null = 100,
): Promise<TransactionView[]> {
  const { where, params } = ledgerConditions(scope, search);
  const rows = await em.execute(
    `select * from transactions where ${where} order by seq desc${limit === null ? '' : ' limit ?'}`,
    limit === null ? params : [...params, limit],
  );
  return (rows as Parameters<typeof toTransactionView>[0][]).map(toTransactionView);
}

/** One numbered page of the search (the console's ledger page) and how many transactions it finds. */
export async function transactionsPage(
  em: EntityManager,
  scope: LedgerScope,
  search: LedgerSearch,
  window: ListWindow,
): Promise<CountedPage<TransactionView>> {
  const { where, params } = ledgerConditions(scope, search);
  const page = await countedPage<Parameters<typeof toTransactionView>[0]>(
    em,
    `select * from transactions where ${where} order by seq desc`,
    params,
    window,
  );
  return { ...page, rows: page.rows.map(toTransactionView) };
}

const CSV_COLUMNS = [
  'id',
  'createdAt',
  'type',
  'deltaCentavos',
  'balanceAfterCentavos',
  'referenceType',
  'referenceId',
  'note',
] as const;

/** RFC 4180 CSV with the API's field names (amounts in centavos, times ISO 8601 UTC), so rows compare 1:1. */
export function transactionsCsv(rows: TransactionView[]): string {
  return (
    csvLine([...CSV_COLUMNS]) + rows.map((row) => csvLine(CSV_COLUMNS.map((column) => row[column]))).join('')
  );
}
