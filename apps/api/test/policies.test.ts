import {
  can,
  checkReconciliationDecision,
  CONSOLE_ROLES,
  createApiKey,
  createConsoleUser,
  ForbiddenError,
  generatePassword,
  LOGIN_THROTTLE,
  NotFoundError,
  requirePermission,
  signInWithPolicy,
  SIGN_IN_LOCKOUT,
  updateConsoleUser,
  ValidationError,
  type ConsoleAction,
  type ConsoleRole,
  type PacClients,
} from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';
import { runCli } from './cli';

// The policies every face (console, OAuth consent page, CLI) calls, against the real database and Redis.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
}, 60_000);
afterAll(async () => api?.close());

const em = () => api.orm.em.fork();
const tag = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
/** A client address of its own per test, so that the per-address throttle of one test does not reach another. */
const newIp = () =>
  `2001:db8::${Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .replace(/(....)$/, ':$1')}`;

describe('roles', () => {
  it('one table says what each role may do', () => {
    const table = Object.fromEntries(
      CONSOLE_ROLES.map((role) => [
        role,
        (
          [
            'console_users.manage',
            'accounts.any',
            'audit.read',
            'reconciliation.resolve',
            'files.render_again',
            'api_keys.manage',
            'records.manage',
            'documents.issue',
            'merchants.settings',
          ] as ConsoleAction[]
        ).filter((action) => can({ role }, action)),
      ]),
    );
    expect(table).toEqual({
      admin: [
        'console_users.manage',
        'accounts.any',
        'audit.read',
        'reconciliation.resolve',
        'files.render_again',
        'api_keys.manage',
        'records.manage',
        'documents.issue',
        'merchants.settings',
      ],
      operator: [
        'accounts.any',
        'audit.read',
        'reconciliation.resolve',
        'files.render_again',
        'api_keys.manage',
      ],
      finance: ['api_keys.manage', 'records.manage', 'documents.issue', 'merchants.settings'],
    });
    expect(() => requirePermission({ role: 'finance' }, 'reconciliation.resolve')).toThrow(ForbiddenError);
    expect(() => requirePermission({ role: 'operator' }, 'reconciliation.resolve')).not.toThrow();
  });

  it('creating or changing a user refuses a role that is not one, from any face', async () => {
    const email = `role-${tag()}@example.com`;
    await expect(
      createConsoleUser(em(), { email, password: generatePassword(), role: 'root' as ConsoleRole }),
    ).rejects.toThrow(ValidationError);
    const user = await createConsoleUser(em(), { email, password: generatePassword(), role: 'operator' });
    await expect(updateConsoleUser(em(), user.id, { role: 'root' as ConsoleRole })).rejects.toMatchObject({
      extra: { errors: [{ path: '/role', message: 'must be one of: admin, operator, finance' }] },
    });
    // The CLI says the services' rule as a usage error (exit 2), before touching the database.
    const cli = await runCli(api.config, ['console-users', 'update', email, '--role', 'root']);
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining('role must be one of: admin, operator, finance'),
    });
  }, 60_000);
});

describe('key limits', () => {
  it("a key's merchants are the account's, in the key's mode; the maker's mode and merchant limits bound the key", async () => {
    const account = await api.newAccount();
    const other = await api.newAccount();
    const first = await newMerchant(api, account.testKey, { ...EKU, serie: 'KA' });
    const second = await newMerchant(api, account.testKey, { ...EKU, serie: 'KB' });
    const live = await newMerchant(api, account.liveKey, { ...EKU, serie: 'KL' });
    const foreign = await newMerchant(api, other.testKey, { ...EKU, serie: 'KF' });
    const key = (input: Partial<Parameters<typeof createApiKey>[1]>) =>
      createApiKey(em(), { accountId: account.accountId, livemode: false, ...input });
    const keysBefore = await em().execute('select count(*)::int as n from api_keys where account_id = ?', [
      account.accountId,
    ]);

    for (const id of [foreign.id, live.id, 'mch_nope'])
      await expect(key({ merchantIds: [first.id, id] })).rejects.toEqual(new NotFoundError('merchant', id));
    await expect(key({ note: 'x'.repeat(201) })).rejects.toThrow(ValidationError);
    // A user limited to one merchant makes keys of that merchant only, never of the whole account.
    const maker = { livemode: null, merchantIds: [first.id] };
    await expect(key({ maker })).rejects.toThrow(ForbiddenError);
    await expect(key({ merchantIds: [first.id, second.id], maker })).rejects.toThrow(ForbiddenError);
    await expect(key({ maker: { livemode: true, merchantIds: null } })).rejects.toThrow(/live mode only/);
    expect(
      await em().execute('select count(*)::int as n from api_keys where account_id = ?', [account.accountId]),
    ).toEqual(keysBefore);

    const limited = await key({ merchantIds: [first.id, first.id], maker, note: '  ci  ' });
    expect(limited.key).toMatchObject({ merchantIds: [first.id], note: 'ci', livemode: false });
    const whole = await key({ maker: { livemode: false, merchantIds: null } });
    expect(whole.key.merchantIds).toBeNull();
    const liveKey = await key({ livemode: true, merchantIds: [live.id] });
    expect(liveKey.key).toMatchObject({ livemode: true, merchantIds: [live.id] });
  }, 60_000);

  it('`cfdi keys create` hits the same limits: a merchant of the other mode is not found', async () => {
    const account = await api.newAccount();
    const live = await newMerchant(api, account.liveKey, { ...EKU, serie: 'KC' });
    const refused = await runCli(api.config, ['keys', 'create', account.accountId, '--merchant', live.id]);
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 3,
      stderr: expect.stringContaining(`No merchant with id "${live.id}"`),
    });
    const made = await runCli(api.config, [
      'keys',
      'create',
      account.accountId,
      '--mode',
      'live',
      '--merchant',
      live.id,
      '--json',
    ]);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ livemode: true, merchantIds: [live.id] });
  }, 60_000);
});

describe('reconciliation input rules', () => {
  const noPac = {
    forMode() {
      throw new Error('the PAC must not be asked');
    },
  } as unknown as PacClients;

  it('refuses malformed decisions before reading the document, and an unknown document as not found', async () => {
    await expect(
      checkReconciliationDecision(em(), noPac, 'inv_NOPE', { decision: 'stamped', resolvedBy: 'ana' }),
    ).rejects.toMatchObject({ extra: { errors: [{ path: '/uuid' }] } });
    await expect(
      checkReconciliationDecision(em(), noPac, 'inv_NOPE', {
        decision: 'not_stamped',
        note: 'no record at the PAC',
        resolvedBy: 'ana',
      }),
    ).rejects.toThrow(NotFoundError);
  });
});

describe('sign-in policy', () => {
  const password = 'a long enough password';
  const newUser = (input: { role?: ConsoleRole; accountId?: string; livemode?: boolean } = {}) =>
    createConsoleUser(em(), {
      email: `sign-in-${tag()}@example.com`,
      password,
      role: input.role ?? 'operator',
      ...input,
    });
  const deps = () => ({ em: em(), redis: api.redis });
  const open = async () => ({ target: 'opened' });
  const auditOf = async (email: string): Promise<Record<string, unknown>[]> =>
    (
      await em().execute(
        "select action, target, ip, detail, console_user_id from console_audit where actor_email = ? and action like 'session.%' order by id",
        [email],
      )
    ).map((row: Record<string, unknown>) => ({
      ...row,
      console_user_id: row.console_user_id ? 'user' : null,
    }));

  it('audits success and failure with the address and the channel; the target is what the face opened', async () => {
    const user = await newUser();
    const ip = newIp();
    const wrong = await signInWithPolicy(
      deps(),
      { email: user.email, password: 'not the password', ip, channel: 'oauth_consent' },
      open,
    );
    expect(wrong).toEqual({ ok: false, reason: 'invalid' });
    const right = await signInWithPolicy(
      deps(),
      { email: ` ${user.email.toUpperCase()} `, password, ip, channel: 'console' },
      open,
    );
    expect(right).toMatchObject({ ok: true, user: { id: user.id }, opened: { target: 'opened' } });
    expect(await auditOf(user.email)).toEqual([
      {
        action: 'session.sign_in_failed',
        target: null,
        ip,
        detail: { channel: 'oauth_consent', reason: 'invalid' },
        console_user_id: null,
      },
      {
        action: 'session.sign_in',
        target: 'opened',
        ip,
        detail: { channel: 'console' },
        console_user_id: 'user',
      },
    ]);
  });

  it("a face's refusal after the right password (ForbiddenError from open) is audited, counts no guess and opens nothing", async () => {
    const user = await newUser();
    const ip = newIp();
    const refused = await signInWithPolicy(
      deps(),
      { email: user.email, password, ip, channel: 'oauth_consent' },
      async () => {
        throw new ForbiddenError('no account');
      },
    );
    expect(refused).toEqual({ ok: false, reason: 'forbidden', message: 'no account' });
    expect(await auditOf(user.email)).toEqual([
      expect.objectContaining({
        action: 'session.sign_in_failed',
        detail: { channel: 'oauth_consent', reason: 'forbidden', message: 'no account' },
        console_user_id: 'user',
      }),
    ]);
    expect(await api.redis.get(`console-login:email:${user.email.toLowerCase()}`)).toBeNull();
  });

  it('failures on one channel count on the other: past the per-e-mail limit both refuse before the password, without an audit row', async () => {
    const user = await newUser();
    // Under the per-user lock-out's limit (it is the same number): the throttle alone must refuse here.
    expect(LOGIN_THROTTLE.perEmail).toBeLessThanOrEqual(SIGN_IN_LOCKOUT.failures);
    for (let i = 0; i < LOGIN_THROTTLE.perEmail; i += 1) {
      const channel = i % 2 ? 'console' : 'oauth_consent';
      expect(
        await signInWithPolicy(deps(), { email: user.email, password: 'wrong!', ip: newIp(), channel }, open),
      ).toMatchObject({ ok: false });
    }
    for (const channel of ['console', 'oauth_consent'] as const) {
      const throttled = await signInWithPolicy(
        deps(),
        { email: user.email, password, ip: newIp(), channel },
        open,
      );
      expect(throttled).toMatchObject({ ok: false, reason: 'throttled' });
      expect((throttled as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
      expect((throttled as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(
        LOGIN_THROTTLE.windowSeconds,
      );
    }
    const audit = await auditOf(user.email);
    expect(audit.map((row) => row.action)).toEqual(
      Array(LOGIN_THROTTLE.perEmail).fill('session.sign_in_failed'),
    );
  });

  it('one address spraying many e-mails is throttled on every channel', async () => {
    const ip = newIp();
    for (let i = 0; i < LOGIN_THROTTLE.perIp; i += 1)
      await signInWithPolicy(
        deps(),
        { email: `nobody-${i}-${tag()}@example.com`, password: 'guess!', ip, channel: 'oauth_consent' },
        open,
      );
    const user = await newUser();
    expect(
      await signInWithPolicy(deps(), { email: user.email, password, ip, channel: 'console' }, open),
    ).toMatchObject({ ok: false, reason: 'throttled' });
    expect(
      await signInWithPolicy(deps(), { email: user.email, password, ip: newIp(), channel: 'console' }, open),
    ).toMatchObject({ ok: true });
  });

  it('refuses empty and oversized credentials without checking them or writing anything', async () => {
    const user = await newUser();
    for (const attempt of [
      { email: '', password },
      { email: user.email, password: '' },
      { email: user.email, password: 'x'.repeat(1025) },
    ])
      expect(await signInWithPolicy(deps(), { ...attempt, ip: newIp(), channel: 'console' }, open)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    expect(await auditOf(user.email)).toEqual([]);
  });
});
