import { newId, type EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { LedgerScope } from '../ledger';
import { requireStripe, stripeFailed, type StripeClients, type StripeMode } from './stripe-clients';
import {
  failPendingPurchase,
  insertPendingPurchase,
  insertStripeCustomer,
  selectStripeCustomer,
  setPurchaseSession,
} from './purchase-repository';

/** The spec's top-up limits, in centavos (100.00 to 50,000.00 MXN). */
export const TOP_UP_MIN_CENTAVOS = 10_000;
export const TOP_UP_MAX_CENTAVOS = 5_000_000;

export interface BillingContext {
  em: EntityManager;
  stripe: StripeClients;
}

export interface CheckoutSessionView {
  object: 'checkout_session';
  url: string;
  purchaseId: string;
  checkoutSessionId: string;
  amountCentavos: number;
  currency: 'MXN';
}

export interface PortalSessionView {
  object: 'portal_session';
  url: string;
}

/**
 * The account's Stripe customer in this mode, created once. Concurrent first purchases ask Stripe with the same
 * idempotency key, so they get the same customer back, and the insert keeps whichever row lands first.
 */
async function stripeCustomer(em: EntityManager, mode: StripeMode, scope: LedgerScope): Promise<string> {
  const existing = await selectStripeCustomer(em, scope);
  if (existing) return existing;
  const customer = await mode.stripe.customers
    .create(
      { description: `CFDI platform account ${scope.accountId}`, metadata: { accountId: scope.accountId } },
      { idempotencyKey: `customer-${scope.accountId}-${scope.livemode ? 'live' : 'test'}` },
    )
    .catch((error: unknown) => {
      throw stripeFailed(error);
    });
  await insertStripeCustomer(em, scope, customer.id);
  return (await selectStripeCustomer(em, scope))!;
}

/**
 * A Stripe Checkout Session (hosted page, MXN) for a top-up, and its `pending` purchase. The purchase is stored
 * before Stripe is called so its id travels in the session (`client_reference_id`, metadata): the webhook finds
 * the purchase by it even if this process dies before it records the session id.
 */
export async function createCheckoutSession(
  ctx: BillingContext,
  scope: LedgerScope,
  amountCentavos: number,
): Promise<CheckoutSessionView> {
  if (
    !Number.isSafeInteger(amountCentavos) ||
    amountCentavos < TOP_UP_MIN_CENTAVOS ||
    amountCentavos > TOP_UP_MAX_CENTAVOS
  ) {
    throw ValidationError.field(
      '/amountCentavos',
      `must be an integer from ${TOP_UP_MIN_CENTAVOS} to ${TOP_UP_MAX_CENTAVOS} centavos`,
    );
  }
  const mode = requireStripe(ctx.stripe, scope.livemode);
  const customer = await stripeCustomer(ctx.em, mode, scope);
  const purchaseId = newId('pur');
  await insertPendingPurchase(ctx.em, scope, {
    id: purchaseId,
    amount_centavos: amountCentavos,
    stripe_customer_id: customer,
  });
  const metadata = { purchaseId, accountId: scope.accountId };
  let session;
  try {
    session = await mode.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer,
        client_reference_id: purchaseId,
        metadata,
        payment_intent_data: { metadata },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'mxn',
              unit_amount: amountCentavos,
              product_data: { name: 'Saldo para timbres CFDI' },
            },
          },
        ],
        success_url: mode.pages.successUrl,
        cancel_url: mode.pages.cancelUrl,
      },
      { idempotencyKey: `checkout-${purchaseId}` },
    );
  } catch (error) {
    await failPendingPurchase(ctx.em, purchaseId);
    throw stripeFailed(error);
  }
  await setPurchaseSession(ctx.em, purchaseId, session.id);
  if (!session.url)
    throw stripeFailed(new Error(`Checkout session ${session.id} came back without a hosted URL`));
  return {
    object: 'checkout_session',
    url: session.url,
    purchaseId,
    checkoutSessionId: session.id,
    amountCentavos,
    currency: 'MXN',
  };
}

/** A Stripe billing portal session (receipts, payment methods) for the account's customer, created if missing. */
export async function createPortalSession(
  ctx: BillingContext,
  scope: LedgerScope,
): Promise<PortalSessionView> {
  const mode = requireStripe(ctx.stripe, scope.livemode);
  const customer = await stripeCustomer(ctx.em, mode, scope);
  const session = await mode.stripe.billingPortal.sessions
    .create({ customer, return_url: mode.pages.returnUrl })
    .catch((error: unknown) => {
      throw stripeFailed(error);
    });
  return { object: 'portal_session', url: session.url };
}
