import type Stripe from 'stripe';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import { tryPostEntry } from '../ledger';
import type { PurchaseFailure } from './purchases';
import { billingUnavailable, type StripeClients, type StripeMode } from './stripe-clients';
import { lockPurchase, markPurchaseCredited, markPurchaseFailed } from './purchase-repository';

/** Stripe's own default: a signature older than this is refused, so a captured delivery cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** What a delivery did, for the log line (Stripe only needs the 200). */
export type WebhookOutcome =
  | 'credited'
  | 'already_credited'
  | 'failed'
  | 'awaiting_payment'
  | 'ignored_event'
  | 'unknown_purchase'
  | 'other_mode'
  | 'other_session'
  | 'not_pending';

/**
 * The event, verified with the SDK against each configured mode's webhook secret. The secret that verifies it
 * tells which Stripe account (live or test) sent it; a bad, missing or stale signature is a 400 that reads nothing.
 */
export function verifyStripeEvent(
  clients: StripeClients,
  payload: Buffer,
  signature: string | undefined,
): { mode: StripeMode; event: Stripe.Event } {
  const modes = clients.configured();
  if (!modes.length) throw billingUnavailable(true);
  const reject = (message: string) =>
    new ValidationError(message, [{ path: '/headers/stripe-signature', message }]);
  if (!signature) throw reject('missing Stripe-Signature header');
  for (const mode of modes) {
    try {
      return {
        mode,
        event: mode.stripe.webhooks.constructEvent(
          payload,
          signature,
          mode.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
        ),
      };
    } catch (error) {
      if (!(error instanceof (require('stripe') as typeof Stripe).errors.StripeSignatureVerificationError))
        throw error;
    }
  }
  throw reject(
    `does not verify with the webhook secret, or is older than ${WEBHOOK_TOLERANCE_SECONDS} seconds`,
  );
}

/**
 * Applies one verified Stripe event. A paid Checkout Session (`completed` with `payment_status: paid`, or
 * `async_payment_succeeded` for OXXO/SPEI) credits its purchase once; a failed async payment or an expired session
 * marks a pending purchase failed. The amount and currency are the event's, never what was asked for.
 */
export async function applyStripeEvent(
  em: EntityManager,
  mode: StripeMode,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // `unpaid` on completion: a voucher (OXXO) or transfer (SPEI) is on its way; async_payment_* follows.
      if (event.data.object.payment_status !== 'paid') return 'awaiting_payment';
      return settlePurchase(em, mode, event.data.object, 'credit');
    case 'checkout.session.async_payment_failed':
      return settlePurchase(em, mode, event.data.object, 'payment_failed');
    case 'checkout.session.expired':
      return settlePurchase(em, mode, event.data.object, 'expired');
    default:
      return 'ignored_event';
  }
}

/**
 * Credits or fails the session's purchase under its row lock, in one transaction: concurrent deliveries of the same
 * event (Stripe retrying, two replicas) queue on the lock and the later ones find it settled. The ledger's unique
 * index on purchase entries is the backstop. A success after a failure still credits (the money arrived); a failure
 * after a success changes nothing (a refund is an operator's adjustment).
 */
async function settlePurchase(
  em: EntityManager,
  mode: StripeMode,
  session: Stripe.Checkout.Session,
  action: 'credit' | PurchaseFailure,
): Promise<WebhookOutcome> {
  const purchaseId = session.client_reference_id ?? session.metadata?.purchaseId;
  if (!purchaseId) return 'unknown_purchase';
  return em.transactional(async (tx) => {
    const purchase = await lockPurchase(tx, purchaseId);
    if (!purchase) return 'unknown_purchase';
    // Only the Stripe account of the purchase's mode can settle it: a test-mode payment never credits a live balance.
    if (purchase.livemode !== mode.livemode) return 'other_mode';
    if (purchase.stripe_checkout_session_id && purchase.stripe_checkout_session_id !== session.id)
      return 'other_session';
    if (action !== 'credit') {
      if (purchase.status !== 'pending') return 'not_pending';
      await markPurchaseFailed(tx, purchase.id, session.id, action);
      return 'failed';
    }
    if (purchase.status === 'succeeded') return 'already_credited';
    const paid = session.amount_total;
    if (session.currency !== 'mxn' || !paid || paid <= 0) {
      await markPurchaseFailed(tx, purchase.id, session.id, 'currency_not_mxn');
      return 'failed';
    }
    const scope = { accountId: purchase.account_id, livemode: purchase.livemode };
    const entry = await tryPostEntry(tx, scope, {
      type: 'purchase',
      deltaCentavos: paid,
      referenceType: 'purchase',
      referenceId: purchase.id,
      note: `Stripe Checkout ${session.id}`,
    });
    if (!entry) throw new Error(`no balance to credit for purchase ${purchase.id}`);
    await markPurchaseCredited(tx, purchase.id, {
      credited_centavos: paid,
      transaction_id: entry.id,
      stripe_checkout_session_id: session.id,
    });
    return 'credited';
  });
}
