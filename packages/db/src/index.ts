export { TRANSACTION_TYPES, type TransactionType } from './ledger-types';
export { newId, idAtTime, type IdPrefix } from './ids';
export { createOrm, migrate, ormOptions, pendingMigrations, type Orm } from './orm';
export { ensureDatabase } from './ensure-database';
export type { EntityManager } from '@mikro-orm/postgresql';
