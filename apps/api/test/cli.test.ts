import { runCli } from './cli';
import { startApi, type ApiHarness } from './harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

it('`cfdi accounts create --json` prints exactly accountId, testKey and liveKey, and the keys work', async () => {
  const created = await runCli(api.config, ['accounts', 'create', '--name', 'CLI test', '--json']);
  expect(created.code).toBe(0);
  const json = JSON.parse(created.stdout);
  expect(Object.keys(json).sort()).toEqual(['accountId', 'liveKey', 'testKey']);
  expect(json.testKey).toMatch(/^sk_test_/);
  expect(json.liveKey).toMatch(/^sk_live_/);
  expect((await api.request('GET', '/v1/balance', { key: json.testKey })).body.balanceCentavos).toBe(100000);
  expect((await api.request('GET', '/v1/balance', { key: json.liveKey })).body).toMatchObject({
    livemode: true,
    balanceCentavos: 0,
  });
}, 60_000);

it('creates, lists and revokes keys; a revoked key is refused at once', async () => {
  const { accountId } = await api.newAccount();
  const created = JSON.parse(
    (await runCli(api.config, ['keys', 'create', accountId, '--mode', 'test', '--note', 'ci', '--json']))
      .stdout,
  );
  expect(created.secret).toMatch(/^sk_test_/);
  expect((await api.request('GET', '/v1/balance', { key: created.secret })).status).toBe(200);
  const listed = JSON.parse((await runCli(api.config, ['keys', 'list', accountId, '--json'])).stdout);
  expect(listed.map((k: { id: string }) => k.id)).toContain(created.id);
  expect(JSON.stringify(listed)).not.toContain(created.secret);
  expect((await runCli(api.config, ['keys', 'revoke', accountId, created.id])).code).toBe(0);
  expect((await api.request('GET', '/v1/balance', { key: created.secret })).status).toBe(401);
}, 60_000);

it('shows and adjusts balances with a note; refuses an adjustment without a note or below zero', async () => {
  const { accountId, testKey } = await api.newAccount();
  const adjusted = await runCli(api.config, [
    'balance',
    'adjust',
    accountId,
    '-500',
    '--note',
    'goodwill correction',
    '--json',
  ]);
  expect(adjusted.code).toBe(0);
  expect(JSON.parse(adjusted.stdout)).toMatchObject({
    type: 'adjustment',
    deltaCentavos: -500,
    balanceAfterCentavos: 99500,
    note: 'goodwill correction',
  });
  const shown = JSON.parse((await runCli(api.config, ['balance', 'show', accountId, '--json'])).stdout);
  expect(shown.balanceCentavos).toBe(99500);
  expect((await runCli(api.config, ['balance', 'adjust', accountId, '-500'])).code).not.toBe(0);
  const negative = await runCli(api.config, [
    'balance',
    'adjust',
    accountId,
    '-100000',
    '--note',
    'too much',
  ]);
  expect(negative.code).toBe(1);
  expect(negative.stderr).toContain('negative');
  const recharge = await runCli(api.config, [
    'balance',
    'adjust',
    accountId,
    '1000',
    '--recharge',
    '--note',
    'free test top-up',
    '--json',
  ]);
  expect(JSON.parse(recharge.stdout).type).toBe('recharge');
  const ledger = await api.request('GET', '/v1/billing/transactions', { key: testKey });
  expect(ledger.body.data.map((t: { type: string }) => t.type)).toEqual(['recharge', 'adjustment', 'seed']);
}, 60_000);

it('refuses bad numbers, unknown accounts and merchants and out-of-range limits, saying why in one line on stderr with its exit code and changing nothing', async () => {
  const { accountId, testKey } = await api.newAccount();
  const keys = async () =>
    JSON.parse((await runCli(api.config, ['keys', 'list', accountId, '--json'])).stdout) as unknown[];
  const keysBefore = await keys();
  // Exit codes (docs/api-guide.md, "CLI reference"): 1 refused, 2 usage, 3 not found.
  const cases: [string[], number, RegExp][] = [
    [['balance', 'adjust', accountId, 'abc', '--note', 'x'], 2, /"abc" is not a whole number/],
    [['balance', 'adjust', accountId, '', '--note', 'x'], 2, /"" is not a whole number/],
    [['balance', 'adjust', accountId, '0', '--note', 'x'], 2, /a delta of 0 centavos changes nothing/],
    [['balance', 'adjust', 'acct_nope', '100', '--note', 'x'], 3, /No account with id "acct_nope"/],
    [['balance', 'show', 'acct_nope'], 3, /No account with id "acct_nope"/],
    [['keys', 'create', 'acct_nope'], 3, /No account with id "acct_nope"/],
    [['keys', 'create', accountId, '--merchant', 'mch_nope'], 3, /No merchant with id "mch_nope"/],
    [['accounts', 'limits', accountId, '--rate-limit', 'abc'], 2, /"abc" is not a whole number/],
    [
      ['accounts', 'limits', accountId, '--rate-limit', '0'],
      1,
      /rateLimitPerMinute: must be a whole number of requests per minute of at least 1/,
    ],
    [
      ['accounts', 'limits', accountId, '--monthly-cap', '-1'],
      1,
      /monthlyCap: must be a whole number of timbres of at least 0/,
    ],
    [['accounts', 'limits', accountId], 1, /nothing to change/],
  ];
  for (const [args, code, message] of cases) {
    const refused = await runCli(api.config, args);
    expect({ args, code: refused.code, stderr: refused.stderr }).toEqual({
      args,
      code,
      stderr: expect.stringMatching(message),
    });
    expect(refused.stderr).not.toMatch(/Exception|\n\s+at /);
  }
  // Under --json the same refusal is one JSON object on stderr, with the service's error code.
  const json = await runCli(api.config, ['keys', 'create', 'acct_nope', '--json']);
  expect(json).toMatchObject({ code: 3, stdout: '' });
  expect(JSON.parse(json.stderr)).toEqual({
    error: { code: 'not_found', message: expect.stringContaining('No account with id "acct_nope"') },
  });
  const ledger = await api.request('GET', '/v1/billing/transactions', { key: testKey });
  expect(ledger.body.data.map((t: { type: string }) => t.type)).toEqual(['seed']);
  expect(await keys()).toEqual(keysBefore);
}, 120_000);
