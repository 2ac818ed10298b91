/**
 * The console users aggregate's SQL (console users and their sessions), parameters bound by the driver. Services
 * call these functions and never write SQL on these tables themselves.
 */
import { newId, type EntityManager } from '@cfdi/db';
import type { ConsoleRole } from './roles';
import { countedPage, type CountedPage, type ListWindow } from '../pagination';
import { anyRow, firstRow } from '../sql';

export interface ConsoleUserRow {
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

export async function selectConsoleUser(
  em: EntityManager,
  by: { id: string; forUpdate?: boolean; activeOnly?: boolean } | { email: string },
): Promise<ConsoleUserRow | undefined> {
  const rows: ConsoleUserRow[] =
    'email' in by
      ? await em.execute(`${SELECT} where lower(email) = lower(?)`, [by.email])
      : await em.execute(
          `${SELECT} where id = ?${by.activeOnly ? ' and disabled_at is null' : ''}${by.forUpdate ? ' for update' : ''}`,
          [by.id],
        );
  return rows[0];
}

export async function consoleUserEmailTaken(em: EntityManager, email: string): Promise<boolean> {
  return anyRow(em, 'select 1 from console_users where lower(email) = lower(?)', [email]);
}

export async function selectConsoleUserId(em: EntityManager, email: string): Promise<string | undefined> {
  const rows: { id: string }[] = await em.execute(
    'select id from console_users where lower(email) = lower(?)',
    [email],
  );
  return rows[0]?.id;
}

export async function insertConsoleUser(
  em: EntityManager,
  row: Pick<ConsoleUserRow, 'email' | 'password_hash' | 'role' | 'account_id' | 'livemode' | 'merchant_ids'>,
): Promise<ConsoleUserRow> {
  const merchantIds = row.merchant_ids;
  const rows: ConsoleUserRow[] = await em.execute(
    `insert into console_users (id, email, password_hash, role, account_id, livemode, merchant_ids)
     values (?, ?, ?, ?, ?, ?, ${merchantIds ? '?::text[]' : 'null'})
     returning *, false as locked`,
    [
      newId('cu'),
      row.email,
      row.password_hash,
      row.role,
      row.account_id,
      row.livemode,
      ...(merchantIds ? [merchantIds] : []),
    ],
  );
  return rows[0]!;
}

export function selectConsoleUsers(em: EntityManager, accountId?: string): Promise<ConsoleUserRow[]> {
  return accountId
    ? em.execute(`${SELECT} where account_id = ? order by id`, [accountId])
    : em.execute(`${SELECT} order by id`);
}

/** Newest first: a user just created is on the first page, where its admin looks for it. */
export function consoleUserCountedPage(
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<ConsoleUserRow>> {
  return countedPage<ConsoleUserRow>(em, `${SELECT} order by id desc`, [], window);
}

/** Locks the active admins (serialises demotions) and returns their ids. */
export function lockActiveAdmins(em: EntityManager): Promise<{ id: string }[]> {
  return em.execute(
    "select id from console_users where role = 'admin' and disabled_at is null order by id for update",
  );
}

export async function updateConsoleUserScope(
  em: EntityManager,
  id: string,
  scope: { role: ConsoleRole; livemode: boolean | null; merchant_ids: string[] | null },
): Promise<ConsoleUserRow> {
  const merchantIds = scope.merchant_ids;
  const updated: ConsoleUserRow[] = await em.execute(
    `update console_users set role = ?, livemode = ?, merchant_ids = ${merchantIds ? '?::text[]' : 'null'}, updated_at = now()
      where id = ? returning *, false as locked`,
    [scope.role, scope.livemode, ...(merchantIds ? [merchantIds] : []), id],
  );
  return updated[0]!;
}

/** Disables the user (idempotent); undefined for an unknown e-mail. */
export async function disableConsoleUserRow(
  em: EntityManager,
  email: string,
): Promise<ConsoleUserRow | undefined> {
  return updateByEmail(em, email, 'disabled_at = coalesce(disabled_at, now())', []);
}

/** Sets the password hash and lifts any lock-out; undefined for an unknown e-mail. */
export function setConsoleUserPassword(
  em: EntityManager,
  email: string,
  passwordHash: string,
): Promise<ConsoleUserRow | undefined> {
  return updateByEmail(em, email, 'password_hash = ?, failed_logins = 0, locked_until = null', [
    passwordHash,
  ]);
}

async function updateByEmail(
  em: EntityManager,
  email: string,
  set: string,
  params: unknown[],
): Promise<ConsoleUserRow | undefined> {
  return firstRow<ConsoleUserRow>(
    em,
    `update console_users set ${set}, updated_at = now() where lower(email) = lower(?) returning *, false as locked`,
    [...params, email],
  );
}

/** One more wrong password; the `failures`th in a row locks the user for `minutes`. */
export async function recordFailedSignIn(
  em: EntityManager,
  id: string,
  lockout: { failures: number; minutes: number },
): Promise<void> {
  await em.execute(
    `update console_users set failed_logins = failed_logins + 1,
            locked_until = case when failed_logins + 1 >= ? then now() + interval '${lockout.minutes} minutes' end
      where id = ?`,
    [lockout.failures, id],
  );
}

export async function clearFailedSignIns(em: EntityManager, id: string): Promise<void> {
  await em.execute('update console_users set failed_logins = 0, locked_until = null where id = ?', [id]);
}

export async function insertConsoleSession(
  em: EntityManager,
  row: {
    id: string;
    token_hash: string;
    console_user_id: string;
    ip: string | null;
    user_agent: string | null;
  },
  hours: number,
): Promise<Date> {
  const rows: { expires_at: Date }[] = await em.execute(
    `insert into console_sessions (id, token_hash, console_user_id, ip, user_agent, expires_at)
     values (?, ?, ?, ?, ?, now() + interval '${hours} hours') returning expires_at`,
    [row.id, row.token_hash, row.console_user_id, row.ip, row.user_agent],
  );
  return new Date(rows[0]!.expires_at);
}

/** Marks the live session of this token as seen now and returns it; undefined when unknown, expired or revoked. */
export async function touchConsoleSession(
  em: EntityManager,
  tokenHash: string,
): Promise<{ id: string; console_user_id: string } | undefined> {
  return firstRow<{ id: string; console_user_id: string }>(
    em,
    `update console_sessions set last_seen_at = now()
      where token_hash = ? and revoked_at is null and expires_at > now() returning id, console_user_id`,
    [tokenHash],
  );
}

export async function revokeConsoleSessionByToken(em: EntityManager, tokenHash: string): Promise<void> {
  await em.execute(
    'update console_sessions set revoked_at = coalesce(revoked_at, now()) where token_hash = ?',
    [tokenHash],
  );
}

export async function revokeConsoleSessionsOfUser(em: EntityManager, userId: string): Promise<void> {
  await em.execute(
    'update console_sessions set revoked_at = coalesce(revoked_at, now()) where console_user_id = ? and revoked_at is null',
    [userId],
  );
}

export interface ConsoleAuditRow {
  id: string;
  actor_email: string;
  action: string;
  target: string | null;
  account_id: string | null;
  livemode: boolean | null;
  detail: Record<string, unknown> | null;
  ip: string | null;
  created_at: Date;
}

export async function insertConsoleAudit(
  em: EntityManager,
  row: Omit<ConsoleAuditRow, 'id' | 'created_at'> & { console_user_id: string | null },
): Promise<void> {
  await em.execute(
    `insert into console_audit (id, console_user_id, actor_email, action, target, account_id, livemode, detail, ip)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [
      newId('aud'),
      row.console_user_id,
      row.actor_email,
      row.action,
      row.target,
      row.account_id,
      row.livemode,
      row.detail ? JSON.stringify(row.detail) : null,
      row.ip,
    ],
  );
}

/** Newest first, one numbered page; `accountId` narrows to one account's actions. */
export function consoleAuditCountedPage(
  em: EntityManager,
  accountId: string | undefined,
  window: ListWindow,
): Promise<CountedPage<ConsoleAuditRow>> {
  return countedPage<ConsoleAuditRow>(
    em,
    `select * from console_audit ${accountId ? 'where account_id = ?' : ''} order by id desc`,
    accountId ? [accountId] : [],
    window,
  );
}
