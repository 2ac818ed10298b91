/** The kinds of ledger transactions (the `transactions.type` column's values). */
export type TransactionType = 'purchase' | 'consume' | 'refund' | 'recharge' | 'adjustment' | 'seed';
export const TRANSACTION_TYPES: readonly TransactionType[] = [
  'purchase',
  'consume',
  'refund',
  'recharge',
  'adjustment',
  'seed',
];
