export * from './errors';
export * from './input-text';
export * from './scope';
export * from './ledger';
export * from './balance-alerts';
export * from './accounts';
export * from './api-keys';
export * from './rate-limit';
export { MEXICO_CITY, isoTimestamp, isoTimestampOrNull } from './time';
export { TRANSACTION_TYPES, type TransactionType } from '@cfdi/db';
export { UUID_PATTERN } from '@cfdi/cfdi';
export { connectRedis, closeRedis } from './redis';
export * from './ledger-audit';
export * from './platform-gauges';
export * from './idempotency';
export * from './documents';
export * from './drafts';
export * from './merchants';
export * from './pac-clients';
export {
  sealSecret,
  openSecret,
  readableKeys,
  SecretBoxError,
  type MasterKey,
  type MasterKeyring,
} from './crypto/secret-box';
export {
  rotateMasterKey,
  type MasterKeyRotationOptions,
  type MasterKeyRotationReport,
} from './crypto/rotate-master-key';
export * from './payments';
export * from './records';
export * from './receipts';
export * from './cancellations';
export * from './webhooks';
export * from './emails';
export * from './billing';
export * from './console-users';
export * from './oauth';
export * from './console';
export * from './pagination';
export * from './exchange-rates';
export * from './stamping/stamp-attempt';
