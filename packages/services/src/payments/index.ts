export * from './create-payment';
export { LIVE_PAYMENT_STATUSES } from './installments';
