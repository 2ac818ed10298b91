import { newId, type EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { hashPassword, MIN_PASSWORD_LENGTH, UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { parseConsoleRole, type ConsoleRole } from './roles';
import { countedPage, type CountedPage, type ListWindow } from '../pagination';

export interface ConsoleUserView {
  id: string;
  email: string;
  role: ConsoleRole;
  accountId: string | null;
  /** The only mode the user may act in; null: both. */
  livemode: boolean | null;
  /** The only merchants the user may act on; null: all of the account's. */
  merchantIds: string[] | null;
  disabledAt: string | null;
  createdAt: string;
}

interface ConsoleUserRow {
  id: string;
  email: string;
  password_hash: string;
  role: ConsoleRole;
  account_id: string | null;
  livemode: boolean | null;
  merchant_ids: string[] | null;
  failed_logins: number;
  locked: boolean;
  disabled_at: Date | string | null;
  created_at: Date | string;
}

const SELECT = 'select *, coalesce(locked_until > now(), false) as locked from console_users';

const toView = (row: ConsoleUserRow): ConsoleUserView => ({
  id: row.id,
  email: row.email,
  role: row.role,
  accountId: row.account_id,
  livemode: row.livemode,
  merchantIds: row.merchant_ids,
  disabledAt: isoTimestampOrNull(row.disabled_at),
  createdAt: isoTimestamp(row.created_at),
});

export interface CreateConsoleUserInput {
  email: string;
  password: string;
  role: ConsoleRole;
  accountId?: string | null;
  livemode?: boolean | null;
  merchantIds?: string[] | null;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw ValidationError.field('/password', `must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
}

/** What create and update both refuse; an empty merchant list means no limit (null). */
async function checkedScope(
  em: EntityManager,
  scope: { role: ConsoleRole; accountId: string | null; merchantIds: string[] | null },
): Promise<string[] | null> {
  if (scope.role === 'finance' && !scope.accountId)
    throw ValidationError.field('/accountId', 'is required for a finance user');
  const merchantIds = scope.merchantIds?.length ? [...new Set(scope.merchantIds)] : null;
  if (merchantIds) {
    if (!scope.accountId) throw ValidationError.field('/merchantIds', 'needs an account');
    const found: { id: string }[] = await em.execute(
      'select id from merchants where account_id = ? and id = any(?)',
      [scope.accountId, merchantIds],
    );
    const missing = merchantIds.filter((id) => !found.some((row) => row.id === id));
    if (missing.length)
      throw ValidationError.field(
        '/merchantIds',
        `not merchants of account ${scope.accountId}: ${missing.join(', ')}`,
      );
  }
  return merchantIds;
}

export async function createConsoleUser(
  em: EntityManager,
  input: CreateConsoleUserInput,
): Promise<ConsoleUserView> {
  const email = input.email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw ValidationError.field('/email', 'must be an e-mail address');
  const role = parseConsoleRole(input.role);
  checkPassword(input.password);
  if (input.accountId) {
    const account: unknown[] = await em.execute('select 1 from accounts where id = ?', [input.accountId]);
    if (!account.length) throw new NotFoundError('account', input.accountId);
  }
  const merchantIds = await checkedScope(em, {
    role,
    accountId: input.accountId ?? null,
    merchantIds: input.merchantIds ?? null,
  });
  const taken: unknown[] = await em.execute('select 1 from console_users where lower(email) = lower(?)', [
    email,
  ]);
  if (taken.length) throw ValidationError.field('/email', 'is already a console user');
  const rows: ConsoleUserRow[] = await em.execute(
    `insert into console_users (id, email, password_hash, role, account_id, livemode, merchant_ids)
     values (?, ?, ?, ?, ?, ?, ${merchantIds ? '?::text[]' : 'null'})
     returning *, false as locked`,
    [
      newId('cu'),
      email,
      await hashPassword(input.password),
      role,
      input.accountId ?? null,
      input.livemode ?? null,
      ...(merchantIds ? [merchantIds] : []),
    ],
  );
  return toView(rows[0]!);
}

export async function listConsoleUsers(
  em: EntityManager,
  filter: { accountId?: string } = {},
): Promise<ConsoleUserView[]> {
  const rows: ConsoleUserRow[] = filter.accountId
    ? await em.execute(`${SELECT} where account_id = ? order by id`, [filter.accountId])
    : await em.execute(`${SELECT} order by id`);
  return rows.map(toView);
}

/** One numbered page of the console users, newest first (the console's users page). */
export async function consoleUsersPage(
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<ConsoleUserView>> {
  // Newest first: a user just created is on the first page, where its admin looks for it.
  const page = await countedPage<ConsoleUserRow>(em, `${SELECT} order by id desc`, [], window);
  return { ...page, rows: page.rows.map(toView) };
}

export interface UpdateConsoleUserInput {
  role?: ConsoleRole;
  /** null: both modes. */
  livemode?: boolean | null;
  /** null or empty: all of the account's merchants. */
  merchantIds?: string[] | null;
}

type Changes = { [K in keyof UpdateConsoleUserInput]?: { from: ConsoleUserView[K]; to: ConsoleUserView[K] } };

const sameIds = (a: string[] | null, b: string[] | null) =>
  (a ?? []).toSorted().join() === (b ?? []).toSorted().join();

/**
 * Changes a user's role, mode or merchant limit under the rules of `createConsoleUser`; the account stays. Console
 * sessions load the user on every request, so the change applies to them at once; OAuth grants copied the old mode
 * and merchants when approved, so a scope change revokes them. Demoting the last active admin is refused: nobody
 * could manage users from the console any more. `changes` is empty when nothing changed (nothing is revoked then).
 */
export async function updateConsoleUser(
  em: EntityManager,
  id: string,
  input: UpdateConsoleUserInput,
): Promise<{ user: ConsoleUserView; changes: Changes }> {
  return em.transactional(async (tx) => {
    // Locking the active admins first serialises concurrent demotions, so two admins cannot demote each other.
    const admins: { id: string }[] = await tx.execute(
      "select id from console_users where role = 'admin' and disabled_at is null order by id for update",
    );
    const rows: ConsoleUserRow[] = await tx.execute(`${SELECT} where id = ? for update`, [id]);
    const row = rows[0];
    if (!row) throw new NotFoundError('console user', id);
    if (row.disabled_at)
      throw new ConflictError('console_user_disabled', `Console user ${row.email} is disabled.`);
    const before = toView(row);
    const role = input.role === undefined ? before.role : parseConsoleRole(input.role);
    const livemode = input.livemode === undefined ? before.livemode : input.livemode;
    const merchantIds = await checkedScope(tx, {
      role,
      accountId: before.accountId,
      merchantIds: input.merchantIds === undefined ? before.merchantIds : input.merchantIds,
    });
    if (before.role === 'admin' && role !== 'admin' && !admins.some((admin) => admin.id !== id)) {
      throw new ConflictError(
        'last_admin',
        `${before.email} is the last active admin; make another user admin first.`,
      );
    }
    const changes: Changes = {};
    if (role !== before.role) changes.role = { from: before.role, to: role };
    if (livemode !== before.livemode) changes.livemode = { from: before.livemode, to: livemode };
    if (!sameIds(merchantIds, before.merchantIds))
      changes.merchantIds = { from: before.merchantIds, to: merchantIds };
    if (!Object.keys(changes).length) return { user: before, changes };
    const updated: ConsoleUserRow[] = await tx.execute(
      `update console_users set role = ?, livemode = ?, merchant_ids = ${merchantIds ? '?::text[]' : 'null'}, updated_at = now()
        where id = ? returning *, false as locked`,
      [role, livemode, ...(merchantIds ? [merchantIds] : []), id],
    );
    if (changes.livemode || changes.merchantIds) {
      await tx.execute(
        'update oauth_grants set revoked_at = coalesce(revoked_at, now()) where console_user_id = ?',
        [id],
      );
    }
    return { user: toView(updated[0]!), changes };
  });
}

/** The id of the user with this e-mail (the CLI names users by e-mail). */
export async function consoleUserIdByEmail(em: EntityManager, email: string): Promise<string> {
  const rows: { id: string }[] = await em.execute(
    'select id from console_users where lower(email) = lower(?)',
    [email.trim()],
  );
  if (!rows[0]) throw new NotFoundError('console user', email);
  return rows[0].id;
}

async function updateByEmail(
  em: EntityManager,
  email: string,
  set: string,
  params: unknown[],
): Promise<ConsoleUserView> {
  const rows: ConsoleUserRow[] = await em.execute(
    `update console_users set ${set}, updated_at = now() where lower(email) = lower(?) returning *, false as locked`,
    [...params, email],
  );
  if (!rows[0]) throw new NotFoundError('console user', email);
  return toView(rows[0]);
}

/** Disabling signs the user out of everything: console sessions end and the OAuth grants they gave stop working too. */
export async function disableConsoleUser(em: EntityManager, email: string): Promise<ConsoleUserView> {
  const user = await updateByEmail(em, email, 'disabled_at = coalesce(disabled_at, now())', []);
  await em.execute(
    'update oauth_grants set revoked_at = coalesce(revoked_at, now()) where console_user_id = ?',
    [user.id],
  );
  await em.execute(
    'update console_sessions set revoked_at = coalesce(revoked_at, now()) where console_user_id = ? and revoked_at is null',
    [user.id],
  );
  return user;
}

/** A new password also lifts a lock-out from failed sign-ins. */
export async function resetConsoleUserPassword(
  em: EntityManager,
  email: string,
  password: string,
): Promise<ConsoleUserView> {
  checkPassword(password);
  return updateByEmail(em, email, 'password_hash = ?, failed_logins = 0, locked_until = null', [
    await hashPassword(password),
  ]);
}

/** Consecutive wrong passwords before a lock-out, and how long it lasts. */
export const SIGN_IN_LOCKOUT = { failures: 5, minutes: 15 };

export type SignInResult = { ok: true; user: ConsoleUserView } | { ok: false; reason: 'invalid' | 'locked' };

/**
 * Checks an e-mail and password. Unknown e-mails, disabled users and wrong passwords all answer `invalid` after the
 * same scrypt work; `SIGN_IN_LOCKOUT.failures` wrong passwords in a row lock the user for `minutes` (a correct
 * password does not get in meanwhile), which bounds online guessing of one user's password.
 */
export async function signInConsoleUser(
  em: EntityManager,
  email: string,
  password: string,
): Promise<SignInResult> {
  const rows: ConsoleUserRow[] = await em.execute(`${SELECT} where lower(email) = lower(?)`, [email.trim()]);
  const row = rows[0];
  const matches = await verifyPassword(password, row?.password_hash ?? UNKNOWN_USER_HASH);
  if (!row || row.disabled_at) return { ok: false, reason: 'invalid' };
  if (row.locked) return { ok: false, reason: 'locked' };
  if (!matches) {
    await em.execute(
      `update console_users set failed_logins = failed_logins + 1,
              locked_until = case when failed_logins + 1 >= ? then now() + interval '${SIGN_IN_LOCKOUT.minutes} minutes' end
        where id = ?`,
      [SIGN_IN_LOCKOUT.failures, row.id],
    );
    return { ok: false, reason: 'invalid' };
  }
  if (row.failed_logins)
    await em.execute('update console_users set failed_logins = 0, locked_until = null where id = ?', [
      row.id,
    ]);
  return { ok: true, user: toView(row) };
}

export async function retrieveConsoleUser(em: EntityManager, id: string): Promise<ConsoleUserView | null> {
  const rows: ConsoleUserRow[] = await em.execute(`${SELECT} where id = ? and disabled_at is null`, [id]);
  return rows[0] ? toView(rows[0]) : null;
}
