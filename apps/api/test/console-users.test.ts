import {
  ConflictError,
  createConsoleSession,
  createConsoleUser,
  generatePassword,
  NotFoundError,
  retrieveConsoleSession,
  updateConsoleUser,
  ValidationError,
} from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';
import { runCli } from './cli';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
}, 60_000);
afterAll(async () => api?.close());

const em = () => api.orm.em.fork();
const tag = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
const newUser = (input: {
  role: 'admin' | 'operator' | 'finance';
  accountId?: string;
  merchantIds?: string[];
}) =>
  createConsoleUser(em(), {
    email: `${input.role}-${tag()}@example.com`,
    password: generatePassword(),
    ...input,
  });

describe('updateConsoleUser', () => {
  it('changes role, mode and merchant limit; a second identical call changes nothing', async () => {
    const account = await api.newAccount();
    const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'UA' });
    const user = await newUser({ role: 'finance', accountId: account.accountId });
    const first = await updateConsoleUser(em(), user.id, {
      role: 'operator',
      livemode: false,
      merchantIds: [merchant.id],
    });
    expect(first.user).toMatchObject({
      role: 'operator',
      accountId: account.accountId,
      livemode: false,
      merchantIds: [merchant.id],
    });
    expect(first.changes).toEqual({
      role: { from: 'finance', to: 'operator' },
      livemode: { from: null, to: false },
      merchantIds: { from: null, to: [merchant.id] },
    });
    const again = await updateConsoleUser(em(), user.id, {
      role: 'operator',
      livemode: false,
      merchantIds: [merchant.id],
    });
    expect(again.changes).toEqual({});
    // An empty list lifts the limit, and fields left out stay as they are.
    const widened = await updateConsoleUser(em(), user.id, { merchantIds: [] });
    expect(widened.user).toMatchObject({ role: 'operator', livemode: false, merchantIds: null });
  });

  it("refuses what create refuses: finance without an account, another account's merchant, merchants without an account", async () => {
    const account = await api.newAccount();
    const other = await api.newAccount();
    const foreign = await newMerchant(api, other.testKey, { ...EKU, serie: 'UB' });
    const finance = await newUser({ role: 'finance', accountId: account.accountId });
    const operator = await newUser({ role: 'operator' });
    await expect(updateConsoleUser(em(), operator.id, { role: 'finance' })).rejects.toThrow(ValidationError);
    await expect(updateConsoleUser(em(), finance.id, { merchantIds: [foreign.id] })).rejects.toThrow(
      /not merchants of account/,
    );
    await expect(updateConsoleUser(em(), operator.id, { merchantIds: [foreign.id] })).rejects.toThrow(
      /needs an account/,
    );
    await expect(updateConsoleUser(em(), 'cu_missing', { role: 'operator' })).rejects.toThrow(NotFoundError);
    const [row] = await em().execute('select role, merchant_ids from console_users where id = ?', [
      finance.id,
    ]);
    expect(row).toEqual({ role: 'finance', merchant_ids: null });
  });

  it('refuses to demote the last active admin', async () => {
    const admin = await newUser({ role: 'admin' });
    // The other admins (other suites' too) are disabled only inside this transaction, which is rolled back.
    await em()
      .transactional(async (tx) => {
        await tx.execute(
          "update console_users set disabled_at = now() where role = 'admin' and disabled_at is null and id <> ?",
          [admin.id],
        );
        await expect(updateConsoleUser(tx, admin.id, { role: 'operator' })).rejects.toThrow(ConflictError);
        await expect(updateConsoleUser(tx, admin.id, { livemode: true })).resolves.toMatchObject({
          user: { role: 'admin', livemode: true },
        });
        throw new Error('rollback');
      })
      .catch((error: Error) => expect(error.message).toBe('rollback'));
    await newUser({ role: 'admin' }); // with another admin, the first may step down
    await expect(updateConsoleUser(em(), admin.id, { role: 'operator' })).resolves.toMatchObject({
      user: { role: 'operator' },
    });
  });

  it("applies at once to the user's open console sessions", async () => {
    const account = await api.newAccount();
    const user = await newUser({ role: 'operator', accountId: account.accountId });
    const session = await createConsoleSession(em(), user.id, { ip: null, userAgent: null });
    await updateConsoleUser(em(), user.id, { role: 'finance', livemode: true });
    expect((await retrieveConsoleSession(em(), session.token))?.user).toMatchObject({
      role: 'finance',
      livemode: true,
    });
  });

  it('a mode or merchant change revokes the OAuth grants approved under the old scope; a role change alone does not', async () => {
    const account = await api.newAccount();
    const user = await newUser({ role: 'finance', accountId: account.accountId });
    const grant = async () => {
      const id = `ogr_${tag()}`;
      await em().execute(
        `insert into oauth_clients (id, client_name, redirect_uris, metadata) values (?, 'test', array['http://127.0.0.1/cb'], '{}')`,
        [`oc_${id}`],
      );
      await em().execute(
        `insert into oauth_grants (id, client_id, console_user_id, account_id, livemode, resource) values (?, ?, ?, ?, false, 'http://x/mcp/test')`,
        [id, `oc_${id}`, user.id, account.accountId],
      );
      return id;
    };
    const revoked = async (id: string) =>
      (
        (await em().execute('select revoked_at from oauth_grants where id = ?', [id]))[0] as {
          revoked_at: Date | null;
        }
      ).revoked_at !== null;
    const kept = await grant();
    await updateConsoleUser(em(), user.id, { role: 'operator' });
    expect(await revoked(kept)).toBe(false);
    await updateConsoleUser(em(), user.id, { livemode: false });
    expect(await revoked(kept)).toBe(true);
  });
});

it('`cfdi console-users update` changes role, mode and merchants, and --all-merchants lifts the limit', async () => {
  const account = await api.newAccount();
  const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'UC' });
  const user = await newUser({ role: 'finance', accountId: account.accountId });
  const updated = await runCli(api.config, [
    'console-users',
    'update',
    user.email,
    '--role',
    'operator',
    '--mode',
    'live',
    '--merchant',
    merchant.id,
    '--json',
  ]);
  expect({ code: updated.code, stderr: updated.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(updated.stdout)).toMatchObject({
    email: user.email,
    role: 'operator',
    livemode: true,
    merchantIds: [merchant.id],
  });
  const widened = await runCli(api.config, [
    'console-users',
    'update',
    user.email,
    '--mode',
    'both',
    '--all-merchants',
  ]);
  expect(widened.stdout).toContain(
    `${user.email}  operator  ${account.accountId}  both modes  all merchants  active`,
  );
  const refused = await runCli(api.config, [
    'console-users',
    'update',
    user.email,
    '--merchant',
    'mer_other',
    '--all-merchants',
  ]);
  expect(refused.code).not.toBe(0);
}, 120_000);
