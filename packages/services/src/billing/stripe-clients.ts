import type Stripe from 'stripe';
import type { BillingConfig } from '@cfdi/config';
import { ServiceUnavailableError } from '../errors';

/** The Stripe account one of our modes buys through: live API keys → live Stripe, test API keys → Stripe's test mode. */
export interface StripeMode {
  livemode: boolean;
  stripe: Stripe;
  webhookSecret: string;
  pages: { successUrl: string; cancelUrl: string; returnUrl: string };
}

/** The one place that decides which Stripe account a mode talks to (like `createPacClients` for the PAC). */
export interface StripeClients {
  /** null when that mode has no Stripe account configured. */
  forMode(livemode: boolean): StripeMode | null;
  /** Every configured mode, to find which webhook secret an event was signed with. */
  configured(): StripeMode[];
}

/** Where STRIPE_API_BASE points the SDK (stripe-mock in tests): its host, port and protocol options. */
function endpointOptions(apiBase: string | null) {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: Number(url.port || (protocol === 'http' ? 80 : 443)),
    protocol,
  } as const;
}

export function createStripeClients(billing: BillingConfig): StripeClients {
  const { successUrl, cancelUrl, returnUrl } = billing;
  const modes: StripeMode[] = [];
  for (const [livemode, account] of [
    [true, billing.live],
    [false, billing.test],
  ] as const) {
    if (!account || !successUrl || !cancelUrl || !returnUrl) continue;
    // Retried POSTs carry the SDK's idempotency key, so a retry never creates a second customer or session. The SDK
    // is required only when an account is configured: it holds memory a server without billing never uses.
    const stripe = new (require('stripe') as typeof Stripe)(account.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...endpointOptions(billing.apiBase),
    });
    modes.push({
      livemode,
      stripe,
      webhookSecret: account.webhookSecret,
      pages: { successUrl, cancelUrl, returnUrl },
    });
  }
  return {
    forMode: (livemode) => modes.find((m) => m.livemode === livemode) ?? null,
    configured: () => modes,
  };
}

export function billingUnavailable(livemode: boolean): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'billing_unavailable',
    livemode
      ? 'Billing is not configured on this server (no Stripe credentials for live mode).'
      : 'Billing is not configured for test mode on this server (no Stripe test key); `cfdi balance adjust --recharge` tops up a test balance for free.',
  );
}

export function requireStripe(clients: StripeClients, livemode: boolean): StripeMode {
  const mode = clients.forMode(livemode);
  if (!mode) throw billingUnavailable(livemode);
  return mode;
}

/** A Stripe call that failed (down, refused our key, rejected the request): the buyer can only try again later. */
export function stripeFailed(error: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'billing_unavailable',
    'The payment provider could not be reached or refused the request; try again in a few minutes.',
    { cause: error },
  );
}
