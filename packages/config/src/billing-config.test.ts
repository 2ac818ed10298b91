import { ConfigError, loadConfig } from './config';

const pages = {
  STRIPE_SUCCESS_URL: 'https://console.example/paid?s={CHECKOUT_SESSION_ID}',
  STRIPE_CANCEL_URL: 'https://console.example/billing',
  STRIPE_PORTAL_RETURN_URL: 'https://console.example/billing',
};
const live = { STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_live1' };
const test = { STRIPE_TEST_SECRET_KEY: 'sk_test_abc123', STRIPE_TEST_WEBHOOK_SECRET: 'whsec_test1' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

it('leaves billing off without Stripe variables', () => {
  expect(loadConfig({}).billing).toEqual({
    live: null,
    test: null,
    apiBase: null,
    successUrl: null,
    cancelUrl: null,
    returnUrl: null,
  });
});

it('reads both Stripe accounts, the API base and the pages, keeping the session placeholder', () => {
  expect(
    loadConfig({ ...live, ...test, ...pages, STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).billing,
  ).toEqual({
    live: { secretKey: 'sk_live_abc123', webhookSecret: 'whsec_live1' },
    test: { secretKey: 'sk_test_abc123', webhookSecret: 'whsec_test1' },
    apiBase: 'http://127.0.0.1:12111',
    successUrl: 'https://console.example/paid?s={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://console.example/billing',
    returnUrl: 'https://console.example/billing',
  });
});

it('reports half a Stripe account, missing pages, wrong key kinds and a shared webhook secret', () => {
  expect(problems({ STRIPE_SECRET_KEY: 'sk_live_abc' })).toEqual([
    'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both (the key creates Checkout sessions, the secret verifies their webhooks) or neither',
  ]);
  expect(problems({ ...test })).toEqual([
    'STRIPE_SUCCESS_URL is required when Stripe is configured: the page Stripe Checkout sends the buyer to after paying',
    'STRIPE_CANCEL_URL is required when Stripe is configured: the page Stripe Checkout sends the buyer back to when they give up',
    "STRIPE_PORTAL_RETURN_URL is required when Stripe is configured: the page the billing portal's back link opens",
  ]);
  expect(
    problems({ ...pages, STRIPE_TEST_SECRET_KEY: 'sk_live_abc', STRIPE_TEST_WEBHOOK_SECRET: 'secret' }),
  ).toEqual([
    'STRIPE_TEST_SECRET_KEY must be a Stripe test secret key (sk_test_…, or rk_… for a restricted key)',
    'STRIPE_TEST_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)',
  ]);
  expect(problems({ ...pages, ...live, ...test, STRIPE_TEST_WEBHOOK_SECRET: 'whsec_live1' })).toEqual([
    'STRIPE_WEBHOOK_SECRET and STRIPE_TEST_WEBHOOK_SECRET must differ (Stripe signs live and test events with different secrets)',
  ]);
});

it('accepts a test key for live purchases outside production only', () => {
  const env = { ...pages, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
  expect(loadConfig(env).billing.live?.secretKey).toBe('sk_test_abc');
  expect(
    problems({ ...env, NODE_ENV: 'production', MASTER_KEY: Buffer.alloc(32).toString('base64') }),
  ).toEqual(['STRIPE_SECRET_KEY must be a Stripe live secret key (sk_live_…, or rk_… for a restricted key)']);
});
