export * from './receipts';
export { normalizeReceiptKey, printedReceiptKey, RECEIPT_KEY_LENGTH } from './receipt-key';
export { receiptExpiry } from './receipt-expiry';
export * from './invoice-receipts';
export { receiptTicket } from './receipt-ticket';
export * from './portal';
export * from './global-invoice';
export { emitCoveredReceiptEvents } from './reopen-receipts';
export {
  addDays,
  globalPeriodOf,
  mexicoCityDay,
  PERIODICIDADES,
  type GlobalPeriod,
  type Periodicidad,
} from './global-period';
