import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startStripeMock, type RunningStripeMock } from '@cfdi/devstack';
import { applyStripeEvent, reserveTimbre } from '@cfdi/services';
import { runCli } from './cli';
import { startApi, type ApiHarness } from './harness';

/**
 * Balance top-ups against stripe-mock (Stripe's API mock, built into the tool cache) for the API calls, and
 * webhook deliveries signed like Stripe signs them (the SDK's generateTestHeaderString) for the events.
 */
const LIVE_SECRET = 'whsec_livesecret';
const TEST_SECRET = 'whsec_testsecret';
const signer = new Stripe('sk_test_signer');

let stripeMock: RunningStripeMock;
let api: ApiHarness;
/** A second replica on the same database: Stripe may deliver one event to both at once. */
let replica: ApiHarness;
const accounts: string[] = [];

beforeAll(async () => {
  stripeMock = await startStripeMock((line) => process.stdout.write(`[stripe-mock] ${line}\n`));
  const env = {
    STRIPE_API_BASE: stripeMock.apiBase,
    // stripe-mock only accepts test keys, so the live flow runs on one too (allowed outside production).
    STRIPE_SECRET_KEY: 'sk_test_liveflow',
    STRIPE_WEBHOOK_SECRET: LIVE_SECRET,
    STRIPE_TEST_SECRET_KEY: 'sk_test_testflow',
    STRIPE_TEST_WEBHOOK_SECRET: TEST_SECRET,
    STRIPE_SUCCESS_URL: 'https://console.example/billing?paid={CHECKOUT_SESSION_ID}',
    STRIPE_CANCEL_URL: 'https://console.example/billing',
    STRIPE_PORTAL_RETURN_URL: 'https://console.example/billing',
  };
  api = await startApi(env);
  replica = await startApi(env);
}, 600_000);

afterAll(async () => {
  await replica?.close();
  await api?.close();
  await stripeMock?.stop();
});

async function newAccount() {
  const account = await api.newAccount();
  accounts.push(account.accountId);
  return account;
}

async function checkout(key: string, amountCentavos = 10_000) {
  const res = await api.request('POST', '/v1/billing/checkout_sessions', { key, body: { amountCentavos } });
  expect(res.status).toBe(201);
  return res.body as { purchaseId: string; checkoutSessionId: string; url: string };
}

interface SessionFields {
  amount_total?: number;
  currency?: string;
  payment_status?: 'paid' | 'unpaid';
}

/** A Checkout Session event as Stripe sends it, signed with `secret` at `timestamp` (seconds). */
function stripeEvent(
  type: string,
  session: { purchaseId: string; checkoutSessionId: string },
  fields: SessionFields & { livemode?: boolean } = {},
) {
  return JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    type,
    livemode: fields.livemode ?? true,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: session.checkoutSessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        client_reference_id: session.purchaseId,
        metadata: { purchaseId: session.purchaseId },
        amount_total: fields.amount_total ?? 10_000,
        currency: fields.currency ?? 'mxn',
        payment_status: fields.payment_status ?? 'paid',
      },
    },
  });
}

function deliver(
  payload: string,
  options: { secret?: string; timestamp?: number; to?: ApiHarness; signature?: string } = {},
) {
  const signature =
    options.signature ??
    signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? LIVE_SECRET,
      timestamp: options.timestamp,
    });
  return (options.to ?? api).request('POST', '/stripe/webhook', {
    rawBody: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

const balanceOf = async (key: string) =>
  (await api.request('GET', '/v1/balance', { key })).body.balanceCentavos as number;
const purchasesOf = async (key: string) =>
  (await api.request('GET', '/v1/billing/purchases', { key })).body.data as Record<string, unknown>[];
const purchaseEntries = async (purchaseId: string) =>
  (await api.orm.em
    .fork()
    .execute(`select * from transactions where type = 'purchase' and reference_id = ?`, [purchaseId])) as {
    delta_centavos: string;
  }[];

describe('without Stripe configured', () => {
  it('answers 503 billing_unavailable on both endpoints and the webhook, and 400 with the path for a bad amount', async () => {
    const bare = await startApi();
    try {
      const { testKey, liveKey } = await bare.newAccount();
      for (const key of [testKey, liveKey]) {
        const res = await bare.request('POST', '/v1/billing/checkout_sessions', {
          key,
          body: { amountCentavos: 10_000 },
        });
        expect(res).toMatchObject({ status: 503, body: { code: 'billing_unavailable' } });
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(await bare.request('POST', '/v1/billing/portal_sessions', { key })).toMatchObject({
          status: 503,
          body: { code: 'billing_unavailable' },
        });
      }
      expect(
        await bare.request('POST', '/stripe/webhook', {
          rawBody: '{}',
          headers: { 'stripe-signature': 't=1,v1=00' },
        }),
      ).toMatchObject({ status: 503, body: { code: 'billing_unavailable' } });
      for (const amountCentavos of [9_999, 5_000_001, 10_000.5, '10000']) {
        const res = await bare.request('POST', '/v1/billing/checkout_sessions', {
          key: liveKey,
          body: { amountCentavos },
        });
        expect(res).toMatchObject({
          status: 400,
          body: { code: 'validation_error', errors: [{ path: '/amountCentavos' }] },
        });
      }
    } finally {
      await bare.close();
    }
  }, 120_000);

  it('keeps a mode without its Stripe account at 503 while the other mode sells', async () => {
    const liveOnly = await startApi({
      STRIPE_API_BASE: stripeMock.apiBase,
      STRIPE_SECRET_KEY: 'sk_test_liveonly',
      STRIPE_WEBHOOK_SECRET: LIVE_SECRET,
      STRIPE_SUCCESS_URL: 'https://c.example/ok',
      STRIPE_CANCEL_URL: 'https://c.example/no',
      STRIPE_PORTAL_RETURN_URL: 'https://c.example/',
    });
    try {
      const { testKey, liveKey } = await liveOnly.newAccount();
      expect(
        await liveOnly.request('POST', '/v1/billing/checkout_sessions', {
          key: testKey,
          body: { amountCentavos: 10_000 },
        }),
      ).toMatchObject({ status: 503, body: { code: 'billing_unavailable' } });
      expect(
        (
          await liveOnly.request('POST', '/v1/billing/checkout_sessions', {
            key: liveKey,
            body: { amountCentavos: 10_000 },
          })
        ).status,
      ).toBe(201);
    } finally {
      await liveOnly.close();
    }
  }, 120_000);
});

describe('with Stripe', () => {
  it('creates a Checkout session with a Stripe URL and a pending purchase, one Stripe customer per account and mode, and a portal session', async () => {
    const { accountId, liveKey } = await newAccount();
    const session = await checkout(liveKey, 250_000);
    expect(session).toMatchObject({
      object: 'checkout_session',
      purchaseId: expect.stringMatching(/^pur_/),
      checkoutSessionId: expect.stringMatching(/^cs_/),
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
      amountCentavos: 250_000,
      currency: 'MXN',
    });
    await checkout(liveKey);
    const portal = await api.request('POST', '/v1/billing/portal_sessions', { key: liveKey });
    expect(portal).toMatchObject({
      status: 201,
      body: { object: 'portal_session', url: expect.stringMatching(/^https:\/\//) },
    });
    const customers: { livemode: boolean }[] = await api.orm.em
      .fork()
      .execute('select livemode from stripe_customers where account_id = ?', [accountId]);
    expect(customers).toEqual([{ livemode: true }]);
    const rows: { stripe_customer_id: string }[] = await api.orm.em
      .fork()
      .execute('select distinct stripe_customer_id from purchases where account_id = ?', [accountId]);
    expect(rows).toHaveLength(1);
    const purchases = await purchasesOf(liveKey);
    expect(purchases).toHaveLength(2);
    expect(purchases[1]).toMatchObject({
      id: session.purchaseId,
      object: 'purchase',
      livemode: true,
      status: 'pending',
      amountCentavos: 250_000,
      currency: 'MXN',
      creditedCentavos: null,
      checkoutSessionId: session.checkoutSessionId,
      transactionId: null,
      failureReason: null,
    });
    expect(await balanceOf(liveKey)).toBe(0);
  });

  it('credits a paid session once, with the amount Stripe reports, as a purchase transaction; replays change nothing', async () => {
    const { liveKey } = await newAccount();
    const session = await checkout(liveKey, 10_000);
    // Stripe's event decides the amount (here more than was asked, as a discount-free upsell would), never our request.
    const paid = stripeEvent('checkout.session.completed', session, { amount_total: 12_345 });
    expect(await deliver(paid)).toMatchObject({ status: 200, body: { received: true } });
    expect(await balanceOf(liveKey)).toBe(12_345);
    expect(await deliver(paid)).toMatchObject({ status: 200 });
    expect(
      await deliver(
        stripeEvent('checkout.session.async_payment_succeeded', session, { amount_total: 12_345 }),
      ),
    ).toMatchObject({ status: 200 });
    expect(await deliver(stripeEvent('checkout.session.expired', session))).toMatchObject({ status: 200 });
    expect(await balanceOf(liveKey)).toBe(12_345);
    const [purchase] = await purchasesOf(liveKey);
    expect(purchase).toMatchObject({
      status: 'succeeded',
      amountCentavos: 10_000,
      creditedCentavos: 12_345,
      failureReason: null,
    });
    const ledger = (await api.request('GET', '/v1/billing/transactions?type=purchase', { key: liveKey })).body
      .data;
    expect(ledger).toEqual([
      expect.objectContaining({
        id: purchase!.transactionId,
        type: 'purchase',
        livemode: true,
        deltaCentavos: 12_345,
        balanceAfterCentavos: 12_345,
        referenceType: 'purchase',
        referenceId: session.purchaseId,
      }),
    ]);
  });

  it('credits once when the same event reaches two replicas many times at once', async () => {
    const { liveKey } = await newAccount();
    const session = await checkout(liveKey, 50_000);
    const paid = stripeEvent('checkout.session.completed', session, { amount_total: 50_000 });
    await Promise.all(
      [api, replica].flatMap((h) =>
        Array.from({ length: 8 }, () => h.orm.em.fork().execute('select pg_sleep(0.05)')),
      ),
    );
    const succeeded = stripeEvent('checkout.session.async_payment_succeeded', session, {
      amount_total: 50_000,
    });
    const deliveries = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        deliver(i % 4 < 2 ? paid : succeeded, { to: i % 2 ? replica : api }),
      ),
    );
    expect(deliveries.map((d) => d.status)).toEqual(Array(16).fill(200));
    expect(await balanceOf(liveKey)).toBe(50_000);
    expect(await purchaseEntries(session.purchaseId)).toHaveLength(1);
  });

  it('credits once when deliveries overlap inside the database (each in its own transaction at the same moment)', async () => {
    const { liveKey } = await newAccount();
    const mode = api.deps.stripe.forMode(true)!;
    // Open the pool's connections first, so the transactions below really start together.
    await Promise.all(Array.from({ length: 8 }, () => api.orm.em.fork().execute('select pg_sleep(0.05)')));
    for (let round = 1; round <= 3; round++) {
      const session = await checkout(liveKey, 10_000 * round);
      const event = JSON.parse(
        stripeEvent('checkout.session.completed', session, { amount_total: 10_000 * round }),
      );
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => applyStripeEvent(api.orm.em.fork(), mode, event)),
      );
      expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'already_credited')).toHaveLength(7);
      expect(await purchaseEntries(session.purchaseId)).toHaveLength(1);
    }
    expect(await balanceOf(liveKey)).toBe(60_000);
  });

  it('credits nothing for a forged, stale, missing or tampered signature (400 on the header)', async () => {
    const { liveKey } = await newAccount();
    const session = await checkout(liveKey);
    const paid = stripeEvent('checkout.session.completed', session);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const attempts = [
      deliver(paid, { secret: 'whsec_forged' }),
      deliver(paid, { timestamp: tenMinutesAgo }),
      deliver(paid, { signature: '' }),
      deliver(paid, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }),
      // Signed, then the amount changed in transit.
      deliver(paid.replace('"amount_total":10000', '"amount_total":99999'), {
        signature: signer.webhooks.generateTestHeaderString({ payload: paid, secret: LIVE_SECRET }),
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'validation_error', errors: [{ path: '/headers/stripe-signature' }] },
      });
    }
    expect(await balanceOf(liveKey)).toBe(0);
    expect((await purchasesOf(liveKey))[0]).toMatchObject({ status: 'pending' });
    // The genuine delivery still works afterwards.
    expect((await deliver(paid)).status).toBe(200);
    expect(await balanceOf(liveKey)).toBe(10_000);
  });

  it('credits nothing for an unpaid or expired session; a failed async payment fails the purchase, a late success still credits', async () => {
    const { liveKey } = await newAccount();
    const voucher = await checkout(liveKey, 20_000);
    const expired = await checkout(liveKey, 30_000);
    const wrongCurrency = await checkout(liveKey, 40_000);
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.completed', voucher, {
            amount_total: 20_000,
            payment_status: 'unpaid',
          }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.expired', expired, {
            amount_total: 30_000,
            payment_status: 'unpaid',
          }),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.completed', wrongCurrency, { amount_total: 40_000, currency: 'usd' }),
        )
      ).status,
    ).toBe(200);
    expect(await balanceOf(liveKey)).toBe(0);
    const statuses = async () =>
      Object.fromEntries((await purchasesOf(liveKey)).map((p) => [p.id, [p.status, p.failureReason]]));
    expect(await statuses()).toEqual({
      [voucher.purchaseId]: ['pending', null],
      [expired.purchaseId]: ['failed', 'expired'],
      [wrongCurrency.purchaseId]: ['failed', 'currency_not_mxn'],
    });
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.async_payment_failed', voucher, {
            amount_total: 20_000,
            payment_status: 'unpaid',
          }),
        )
      ).status,
    ).toBe(200);
    expect((await statuses())[voucher.purchaseId]).toEqual(['failed', 'payment_failed']);
    expect(await balanceOf(liveKey)).toBe(0);
    // Stripe's word that the money arrived wins over an earlier failure.
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.async_payment_succeeded', voucher, { amount_total: 20_000 }),
        )
      ).status,
    ).toBe(200);
    expect((await statuses())[voucher.purchaseId]).toEqual(['succeeded', null]);
    expect(await balanceOf(liveKey)).toBe(20_000);
  });

  it('credits a test-mode purchase to the test balance only when Stripe test mode signed it, and a live one only from live', async () => {
    const { testKey, liveKey } = await newAccount();
    const testSession = await checkout(testKey, 15_000);
    const liveSession = await checkout(liveKey, 15_000);
    // Each signed by the other mode's endpoint secret: verified, but not theirs to settle.
    expect(
      (
        await deliver(stripeEvent('checkout.session.completed', testSession, { amount_total: 15_000 }), {
          secret: LIVE_SECRET,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.completed', liveSession, { amount_total: 15_000, livemode: false }),
          { secret: TEST_SECRET },
        )
      ).status,
    ).toBe(200);
    expect([await balanceOf(testKey), await balanceOf(liveKey)]).toEqual([100_000, 0]);
    expect(
      (
        await deliver(
          stripeEvent('checkout.session.completed', testSession, { amount_total: 15_000, livemode: false }),
          { secret: TEST_SECRET },
        )
      ).status,
    ).toBe(200);
    expect([await balanceOf(testKey), await balanceOf(liveKey)]).toEqual([115_000, 0]);
    expect((await purchasesOf(testKey))[0]).toMatchObject({
      livemode: false,
      status: 'succeeded',
      creditedCentavos: 15_000,
    });
  });

  it('keeps purchases to their account and mode, with cursor pagination', async () => {
    const mine = await newAccount();
    const other = await newAccount();
    const first = await checkout(mine.liveKey);
    const second = await checkout(mine.liveKey);
    const third = await checkout(mine.liveKey);
    const page1 = await api.request('GET', '/v1/billing/purchases?limit=2', { key: mine.liveKey });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual([third.purchaseId, second.purchaseId]);
    const page2 = await api.request(
      'GET',
      `/v1/billing/purchases?limit=2&starting_after=${second.purchaseId}`,
      { key: mine.liveKey },
    );
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: first.purchaseId }] });
    expect(await purchasesOf(other.liveKey)).toEqual([]);
    expect(await purchasesOf(mine.testKey)).toEqual([]);
    for (const key of [other.liveKey, mine.testKey]) {
      const foreign = await api.request('GET', `/v1/billing/purchases?starting_after=${first.purchaseId}`, {
        key,
      });
      expect(foreign).toMatchObject({ status: 400, body: { errors: [{ path: '/starting_after' }] } });
    }
    expect((await api.request('GET', '/v1/billing/purchases?limit=101', { key: mine.liveKey })).status).toBe(
      400,
    );
  });

  it('shows the volume tier in force and the next one on the balance', async () => {
    const tiered = await startApi({ PRICE_TIERS: '0:100,2:85' });
    try {
      const { accountId, testKey } = await tiered.newAccount();
      expect((await tiered.request('GET', '/v1/balance', { key: testKey })).body).toMatchObject({
        pricePerTimbreCentavos: 100,
        timbresThisMonth: 0,
        currentTier: { fromTimbres: 0, pricePerTimbreCentavos: 100 },
        nextTier: { fromTimbres: 2, pricePerTimbreCentavos: 85 },
      });
      for (const id of ['a', 'b'])
        await reserveTimbre(
          tiered.orm.em.fork(),
          tiered.config,
          { accountId, livemode: false },
          { type: 'invoice', id },
        );
      expect((await tiered.request('GET', '/v1/balance', { key: testKey })).body).toMatchObject({
        balanceCentavos: 100_000 - 200,
        pricePerTimbreCentavos: 85,
        timbresRemaining: Math.floor(99_800 / 85),
        timbresThisMonth: 2,
        currentTier: { fromTimbres: 2, pricePerTimbreCentavos: 85 },
        nextTier: null,
      });
    } finally {
      await tiered.close();
    }
  }, 120_000);

  it('leaves the ledger audit clean after all of it, and `cfdi ledger verify` catches a purchase credited twice or not at all', async () => {
    const verify = async () => {
      const cli = await runCli(api.config, ['ledger', 'verify', '--json']);
      const report = JSON.parse(cli.stdout) as { violations: { accountId: string; rule: string }[] };
      return { code: cli.code, report };
    };
    const clean = await verify();
    expect(clean.report.violations.filter((v) => accounts.includes(v.accountId))).toEqual([]);

    const { accountId, liveKey } = await newAccount();
    const session = await checkout(liveKey);
    // A credit behind the webhook's back: an entry for a purchase that is still pending.
    await api.orm.em.fork().execute(
      `with b as (update balances set balance_centavos = balance_centavos + 10000 where account_id = ? and livemode = true returning balance_centavos)
       insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos, reference_type, reference_id)
       select ?, ?, true, 'purchase', 10000, b.balance_centavos, 'purchase', ? from b`,
      [accountId, `txn_forged${randomBytes(6).toString('hex')}`, accountId, session.purchaseId],
    );
    try {
      const dirty = await verify();
      expect(dirty.code).toBe(1);
      expect(dirty.report.violations.filter((v) => v.accountId === accountId).map((v) => v.rule)).toEqual([
        'purchase_matches_ledger',
      ]);
    } finally {
      // Settle it the way the webhook would have, so a failure here leaves no violation in the shared database.
      await api.orm.em.fork().execute(
        `update purchases set status = 'succeeded', credited_centavos = 10000,
                transaction_id = (select id from transactions where type = 'purchase' and reference_id = ?) where id = ?`,
        [session.purchaseId, session.purchaseId],
      );
    }
    expect((await verify()).report.violations.filter((v) => v.accountId === accountId)).toEqual([]);
    // And the webhook, arriving now, finds it credited.
    expect((await deliver(stripeEvent('checkout.session.completed', session))).status).toBe(200);
    expect(await balanceOf(liveKey)).toBe(10_000);
  }, 300_000);
});
