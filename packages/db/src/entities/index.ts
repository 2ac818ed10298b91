import { AccountSchema } from './account';
import { ApiKeySchema } from './api-key';
import { BalanceSchema, LedgerTransactionSchema } from './ledger';

export * from './account';
export * from './api-key';
export * from './ledger';

/** Every entity schema the ORM knows; append new ones here. */
export const entities = [AccountSchema, ApiKeySchema, BalanceSchema, LedgerTransactionSchema];
