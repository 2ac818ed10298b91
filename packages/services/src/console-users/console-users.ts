import type { EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { hashPassword, MIN_PASSWORD_LENGTH, UNKNOWN_USER_HASH, verifyPassword } from './passwords';
import { parseConsoleRole, type ConsoleRole } from './roles';
import type { CountedPage, ListWindow } from '../pagination';
import { accountExists } from '../account-repository';
import { merchantIdsOfAccount } from '../merchants/merchant-repository';
import { revokeGrantsOfConsoleUser } from '../oauth/oauth-repository';
import {
  clearFailedSignIns,
  consoleUserCountedPage,
  consoleUserEmailTaken,
  disableConsoleUserRow,
  insertConsoleUser,
  lockActiveAdmins,
  recordFailedSignIn,
  revokeConsoleSessionsOfUser,
  selectConsoleUser,
  selectConsoleUserId,
  selectConsoleUsers,
  setConsoleUserPassword,
  updateConsoleUserScope,
  type ConsoleUserRow,
} from './console-user-repository';

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
    const found = await merchantIdsOfAccount(em, scope.accountId, merchantIds);
    const missing = merchantIds.filter((id) => !found.includes(id));
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
    if (!(await accountExists(em, input.accountId))) throw new NotFoundError('account', input.accountId);
  }
  const merchantIds = await checkedScope(em, {
    role,
    accountId: input.accountId ?? null,
    merchantIds: input.merchantIds ?? null,
  });
  if (await consoleUserEmailTaken(em, email))
    throw ValidationError.field('/email', 'is already a console user');
  const row = await insertConsoleUser(em, {
    email,
    password_hash: await hashPassword(input.password),
    role,
    account_id: input.accountId ?? null,
    livemode: input.livemode ?? null,
    merchant_ids: merchantIds,
  });
  return toView(row);
}

export async function listConsoleUsers(
  em: EntityManager,
  filter: { accountId?: string } = {},
): Promise<ConsoleUserView[]> {
  return (await selectConsoleUsers(em, filter.accountId)).map(toView);
}

/** One numbered page of the console users, newest first (the console's users page). */
export async function consoleUsersPage(
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<ConsoleUserView>> {
  const page = await consoleUserCountedPage(em, window);
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
    const admins = await lockActiveAdmins(tx);
    const row = await selectConsoleUser(tx, { id, forUpdate: true });
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
    const updated = await updateConsoleUserScope(tx, id, { role, livemode, merchant_ids: merchantIds });
    if (changes.livemode || changes.merchantIds) await revokeGrantsOfConsoleUser(tx, id);
    return { user: toView(updated), changes };
  });
}

/** The id of the user with this e-mail (the CLI names users by e-mail). */
export async function consoleUserIdByEmail(em: EntityManager, email: string): Promise<string> {
  const id = await selectConsoleUserId(em, email.trim());
  if (!id) throw new NotFoundError('console user', email);
  return id;
}

function found(row: ConsoleUserRow | undefined, email: string): ConsoleUserView {
  if (!row) throw new NotFoundError('console user', email);
  return toView(row);
}

/** Disabling signs the user out of everything: console sessions end and the OAuth grants they gave stop working too. */
export async function disableConsoleUser(em: EntityManager, email: string): Promise<ConsoleUserView> {
  const user = found(await disableConsoleUserRow(em, email), email);
  await revokeGrantsOfConsoleUser(em, user.id);
  await revokeConsoleSessionsOfUser(em, user.id);
  return user;
}

/** A new password also lifts a lock-out from failed sign-ins. */
export async function resetConsoleUserPassword(
  em: EntityManager,
  email: string,
  password: string,
): Promise<ConsoleUserView> {
  checkPassword(password);
  return found(await setConsoleUserPassword(em, email, await hashPassword(password)), email);
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
  const row = await selectConsoleUser(em, { email: email.trim() });
  const matches = await verifyPassword(password, row?.password_hash ?? UNKNOWN_USER_HASH);
  if (!row || row.disabled_at) return { ok: false, reason: 'invalid' };
  if (row.locked) return { ok: false, reason: 'locked' };
  if (!matches) {
    await recordFailedSignIn(em, row.id, SIGN_IN_LOCKOUT);
    return { ok: false, reason: 'invalid' };
  }
  if (row.failed_logins) await clearFailedSignIns(em, row.id);
  return { ok: true, user: toView(row) };
}

export async function retrieveConsoleUser(em: EntityManager, id: string): Promise<ConsoleUserView | null> {
  const row = await selectConsoleUser(em, { id, activeOnly: true });
  return row ? toView(row) : null;
}
