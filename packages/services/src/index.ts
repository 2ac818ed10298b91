export * from './errors';
export * from './scope';
export * from './ledger';
export * from './accounts';
export * from './api-keys';
export * from './rate-limit';
export { MEXICO_CITY, isoTimestamp, isoTimestampOrNull } from './time';
export { TRANSACTION_TYPES, type TransactionType } from '@cfdi/db';
export { connectRedis, closeRedis } from './redis';
