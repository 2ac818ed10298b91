import { TRANSACTION_TYPES, type EntityManager, type TransactionType } from '@cfdi/db';
import { ValidationError } from '../errors';
import { toTransactionView, type LedgerScope, type TransactionView } from '../ledger';
import { csvLine } from '../csv';
import type { CountedPage, ListWindow } from '../pagination';
import { selectTransactions, transactionCountedPage } from '../ledger-repository';

export interface LedgerSearch {
  type?: TransactionType;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  /** A document, purchase or other id the transaction refers to. */
  reference?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every field of the search, checked (a 400 on the first bad one). */
export function checkLedgerSearch(search: LedgerSearch): void {
  if (search.type && !TRANSACTION_TYPES.includes(search.type))
    throw ValidationError.field('/type', 'Unknown transaction type.');
  for (const field of ['from', 'to'] as const) {
    if (search[field] && !DATE.test(search[field]!))
      throw ValidationError.field(`/${field}`, 'must be a date (YYYY-MM-DD)');
  }
}

/** The scope's transactions matching the search, newest first; `limit` null: all of them (the CSV export). */
export async function searchTransactions(
  em: EntityManager,
  scope: LedgerScope,
  search: LedgerSearch,
  limit: number | null = 100,
): Promise<TransactionView[]> {
  checkLedgerSearch(search);
  return (await selectTransactions(em, scope, search, limit)).map(toTransactionView);
}

/** One numbered page of the search (the console's ledger page) and how many transactions it finds. */
export async function transactionsPage(
  em: EntityManager,
  scope: LedgerScope,
  search: LedgerSearch,
  window: ListWindow,
): Promise<CountedPage<TransactionView>> {
  checkLedgerSearch(search);
  const page = await transactionCountedPage(em, scope, search, window);
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
