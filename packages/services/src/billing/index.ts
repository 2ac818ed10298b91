export { createStripeClients, type StripeClients, type StripeMode } from './stripe-clients';
export {
  createCheckoutSession,
  createPortalSession,
  TOP_UP_MAX_CENTAVOS,
  TOP_UP_MIN_CENTAVOS,
  type BillingContext,
  type CheckoutSessionView,
  type PortalSessionView,
} from './checkout';
export { listPurchases, type PurchaseView, type PurchaseStatus, type PurchaseFailure } from './purchases';
export {
  applyStripeEvent,
  verifyStripeEvent,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookOutcome,
} from './stripe-webhook';
