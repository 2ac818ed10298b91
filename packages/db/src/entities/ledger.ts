import { EntitySchema } from '@mikro-orm/core';

export type TransactionType = 'purchase' | 'consume' | 'refund' | 'recharge' | 'adjustment' | 'seed';
export const TRANSACTION_TYPES: readonly TransactionType[] = [
  'purchase', 'consume', 'refund', 'recharge', 'adjustment', 'seed',
];

export interface Balance {
  accountId: string;
  livemode: boolean;
  balanceCentavos: string;
  updatedAt: Date;
}

export const BalanceSchema = new EntitySchema<Balance>({
  name: 'Balance',
  tableName: 'balances',
  properties: {
    accountId: { type: 'string', primary: true },
    livemode: { type: 'boolean', primary: true },
    balanceCentavos: { type: 'bigint' },
    updatedAt: { type: 'Date' },
  },
});

export interface LedgerTransaction {
  id: string;
  accountId: string;
  livemode: boolean;
  type: TransactionType;
  deltaCentavos: string;
  balanceAfterCentavos: string;
  referenceType: string | null;
  referenceId: string | null;
  note: string | null;
  reversalOf: string | null;
  createdAt: Date;
}

export const LedgerTransactionSchema = new EntitySchema<LedgerTransaction>({
  name: 'LedgerTransaction',
  tableName: 'transactions',
  properties: {
    id: { type: 'string', primary: true },
    accountId: { type: 'string' },
    livemode: { type: 'boolean' },
    type: { type: 'string' },
    deltaCentavos: { type: 'bigint' },
    balanceAfterCentavos: { type: 'bigint' },
    referenceType: { type: 'string', nullable: true },
    referenceId: { type: 'string', nullable: true },
    note: { type: 'string', nullable: true },
    reversalOf: { type: 'string', nullable: true },
    createdAt: { type: 'Date' },
  },
});
