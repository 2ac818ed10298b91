import { adjustBalance, getBalanceCentavos, reserveTimbre, refundReservation } from '@cfdi/services';
import { runCli } from './cli';
import { startApi, type ApiHarness } from './harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

it('seeds the test balance of a new account and keeps the live balance separate', async () => {
  const { testKey, liveKey } = await api.newAccount();
  expect((await api.request('GET', '/v1/balance', { key: testKey })).body).toEqual({
    object: 'balance',
    livemode: false,
    balanceCentavos: 100000,
    currency: 'MXN',
    pricePerTimbreCentavos: 100,
    timbresRemaining: 1000,
    timbresThisMonth: 0,
    currentTier: { fromTimbres: 0, pricePerTimbreCentavos: 100 },
    nextTier: { fromTimbres: 1000, pricePerTimbreCentavos: 85 },
  });
  expect((await api.request('GET', '/v1/balance', { key: liveKey })).body).toMatchObject({
    livemode: true,
    balanceCentavos: 0,
    timbresRemaining: 0,
  });
  const ledger = await api.request('GET', '/v1/billing/transactions', { key: testKey });
  expect(ledger.body).toMatchObject({
    object: 'list',
    has_more: false,
    data: [{ type: 'seed', deltaCentavos: 100000, balanceAfterCentavos: 100000, livemode: false }],
  });
  expect(ledger.body.data[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect((await api.request('GET', '/v1/billing/transactions', { key: liveKey })).body.data).toEqual([]);
});

it('paginates the ledger newest first with has_more and starting_after, scoped to the account', async () => {
  const { accountId, testKey } = await api.newAccount();
  const other = await api.newAccount();
  const em = api.orm.em.fork();
  for (let i = 1; i <= 5; i++)
    await adjustBalance(
      em,
      { accountId, livemode: false },
      { type: 'adjustment', deltaCentavos: i, note: `n${i}` },
    );
  const page1 = await api.request('GET', '/v1/billing/transactions?limit=2', { key: testKey });
  expect(page1.body.data.map((t: { note: string }) => t.note)).toEqual(['n5', 'n4']);
  expect(page1.body.has_more).toBe(true);
  const page2 = await api.request(
    'GET',
    `/v1/billing/transactions?limit=2&starting_after=${page1.body.data[1].id}`,
    { key: testKey },
  );
  expect(page2.body.data.map((t: { note: string }) => t.note)).toEqual(['n3', 'n2']);
  const page3 = await api.request(
    'GET',
    `/v1/billing/transactions?limit=2&starting_after=${page2.body.data[1].id}`,
    { key: testKey },
  );
  expect(page3.body.data.map((t: { note: string | null }) => t.note)).toEqual(['n1', 'Initial test balance']);
  expect(page3.body.has_more).toBe(false);
  const filtered = await api.request('GET', '/v1/billing/transactions?type=seed', { key: testKey });
  expect(filtered.body.data).toHaveLength(1);
  // Another account's cursor does not exist in this scope.
  const foreign = await api.request(
    'GET',
    `/v1/billing/transactions?starting_after=${page1.body.data[0].id}`,
    { key: other.testKey },
  );
  expect(foreign.status).toBe(400);
  expect(foreign.body.errors[0].path).toBe('/starting_after');
  for (const limit of ['0', '101', 'abc']) {
    expect(
      (await api.request('GET', `/v1/billing/transactions?limit=${limit}`, { key: testKey })).status,
    ).toBe(400);
  }
});

it('lets exactly as many concurrent reservations through as the balance covers, never going negative', async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  const em = api.orm.em.fork();
  await adjustBalance(em, scope, {
    type: 'adjustment',
    deltaCentavos: -(100000 - 2000),
    note: 'leave 20 timbres',
  });
  const results = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) =>
      reserveTimbre(api.orm.em.fork(), api.config, scope, { type: 'invoice', id: `inv_${i}` }),
    ),
  );
  const ok = results.filter((r) => r.status === 'fulfilled');
  const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
  expect(ok).toHaveLength(20);
  expect(refused.every((r) => r.reason.code === 'insufficient_credits')).toBe(true);
  expect(await getBalanceCentavos(em, scope)).toBe(0);
  const [sums]: { total: string; consumes: string; last_after: string }[] = await em.execute(
    `select sum(delta_centavos) as total, count(*) filter (where type = 'consume') as consumes,
            (select balance_after_centavos from transactions where account_id = ? and livemode = false order by seq desc limit 1) as last_after
       from transactions where account_id = ? and livemode = false`,
    [accountId, accountId],
  );
  expect(Number(sums!.total)).toBe(0);
  expect(Number(sums!.consumes)).toBe(20);
  expect(Number(sums!.last_after)).toBe(0);
});

it('refunds a reservation exactly once and reports usage per month', async () => {
  const { accountId, testKey } = await api.newAccount();
  const scope = { accountId, livemode: false };
  const consume = await reserveTimbre(api.orm.em.fork(), api.config, scope, { type: 'invoice', id: 'inv_x' });
  await reserveTimbre(api.orm.em.fork(), api.config, scope, { type: 'invoice', id: 'inv_y' });
  const [a, b] = await Promise.all([
    refundReservation(api.orm.em.fork(), scope, consume.id),
    refundReservation(api.orm.em.fork(), scope, consume.id).catch(() =>
      refundReservation(api.orm.em.fork(), scope, consume.id),
    ),
  ]);
  expect(a.id).toBe(b.id);
  expect(await getBalanceCentavos(api.orm.em.fork(), scope)).toBe(100000 - 100);
  const usage = await api.request('GET', '/v1/billing/usage', { key: testKey });
  expect(usage.body.data).toEqual([
    {
      object: 'usage_month',
      month: expect.stringMatching(/^\d{4}-\d\d$/),
      livemode: false,
      timbres: 1,
      spentCentavos: 100,
    },
  ]);
  expect((await api.request('GET', '/v1/billing/usage?limit=25', { key: testKey })).status).toBe(400);
});

it('answers 402 monthly_limit_reached at the account cap', async () => {
  const { accountId } = await api.newAccount({ monthlyCap: 1 });
  const scope = { accountId, livemode: false };
  await reserveTimbre(api.orm.em.fork(), api.config, scope, { type: 'invoice', id: 'a' });
  await expect(
    reserveTimbre(api.orm.em.fork(), api.config, scope, { type: 'invoice', id: 'b' }),
  ).rejects.toMatchObject({ status: 402, code: 'monthly_limit_reached' });
});

it('counts the month net of refunds for the cap and the volume price, and the audit checks that count', async () => {
  const { auditLedger } = await import('@cfdi/services');
  const { accountId } = await api.newAccount({ monthlyCap: 2 });
  const scope = { accountId, livemode: false };
  const tiers = {
    priceTiers: [
      { from: 0, centavos: 100 },
      { from: 1, centavos: 85 },
    ],
  };
  const first = await reserveTimbre(api.orm.em.fork(), tiers, scope, { type: 'invoice', id: 'a' });
  const second = await reserveTimbre(api.orm.em.fork(), tiers, scope, { type: 'invoice', id: 'b' });
  expect([first.deltaCentavos, second.deltaCentavos]).toEqual([-100, -85]);
  await expect(
    reserveTimbre(api.orm.em.fork(), tiers, scope, { type: 'invoice', id: 'c' }),
  ).rejects.toMatchObject({ code: 'monthly_limit_reached' });
  await refundReservation(api.orm.em.fork(), scope, second.id);
  const third = await reserveTimbre(api.orm.em.fork(), tiers, scope, { type: 'invoice', id: 'c' });
  expect(third.deltaCentavos).toBe(-85);
  const mine = async () =>
    (await auditLedger(api.orm.em.fork())).report.violations.filter((v) => v.accountId === accountId);
  expect(await mine()).toEqual([]);
  await api.orm.em
    .fork()
    .execute('update monthly_usage set timbres = timbres - 1 where account_id = ?', [accountId]);
  expect((await mine()).map((v) => v.rule)).toEqual(['usage_matches_ledger']);
  await api.orm.em
    .fork()
    .execute('update monthly_usage set timbres = timbres + 1 where account_id = ?', [accountId]);
  // The month's spend (what GET /v1/billing/usage answers from the rollup) is checked against the ledger too.
  expect((await mine()).map((v) => v.rule)).toEqual([]);
  await api.orm.em
    .fork()
    .execute('update monthly_usage set spent_centavos = spent_centavos + 1 where account_id = ?', [
      accountId,
    ]);
  expect((await mine()).map((v) => v.detail)).toEqual([
    expect.stringContaining('spent 186 centavos ≠ ledger 185'),
  ]);
  await api.orm.em
    .fork()
    .execute('update monthly_usage set spent_centavos = spent_centavos - 1 where account_id = ?', [
      accountId,
    ]);
});

it('the ledger audit finds a balance that disagrees with its ledger, and the CLI exits non-zero on it', async () => {
  const { auditLedger } = await import('@cfdi/services');
  const { accountId } = await api.newAccount();
  const { report: before } = await auditLedger(api.orm.em.fork());
  expect(before.violations.filter((v) => v.accountId === accountId)).toEqual([]);
  // Corrupt the balance behind the ledger's back (what a bug or a manual UPDATE would do).
  await api.orm.em
    .fork()
    .execute(
      'update balances set balance_centavos = balance_centavos + 1 where account_id = ? and livemode = false',
      [accountId],
    );
  const { report: after } = await auditLedger(api.orm.em.fork());
  expect(
    after.violations
      .filter((v) => v.accountId === accountId)
      .map((v) => v.rule)
      .sort(),
  ).toEqual(['balance_matches_last_entry', 'balance_matches_sum']);
  const cli = await runCli(api.config, ['ledger', 'verify']);
  expect(cli.code).toBe(1);
  expect(cli.stdout).toContain(`${accountId} test balance_matches_sum`);
  await api.orm.em
    .fork()
    .execute(
      'update balances set balance_centavos = balance_centavos - 1 where account_id = ? and livemode = false',
      [accountId],
    );
}, 60_000);

it('exposes the last ledger audit and reconciliation backlog on /metrics', async () => {
  const { auditLedger, recordLedgerAudit } = await import('@cfdi/services');
  await recordLedgerAudit(api.orm.em.fork(), await auditLedger(api.orm.em.fork()));
  const res = await fetch(`${api.url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toMatch(/^cfdi_ledger_audit_violations \d+$/m);
  expect(text).toMatch(/^cfdi_ledger_audit_age_seconds [0-5]$/m);
  expect(text).toMatch(/^cfdi_reconciliations_waiting \d+$/m);
});
