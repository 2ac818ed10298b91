/**
 * The OAuth aggregate's SQL (clients, authorization requests, grants and tokens), parameters bound by the driver.
 * Services call these functions and never write SQL on these tables themselves. Some reads join the console user
 * (disabled users' grants do not work) or the account (its rate limit); they write only OAuth tables.
 */
import { newId, type EntityManager } from '@cfdi/db';
import { anyRow, firstRow } from '../sql';

export async function insertOAuthClient(
  em: EntityManager,
  row: { id: string; client_name: string | null; redirect_uris: string[]; metadata: string },
): Promise<void> {
  await em.execute(
    'insert into oauth_clients (id, client_name, redirect_uris, metadata) values (?, ?, ?::text[], ?)',
    [row.id, row.client_name, row.redirect_uris, row.metadata],
  );
}

export async function selectOAuthClient(
  em: EntityManager,
  id: string,
): Promise<{ id: string; client_name: string | null; redirect_uris: string[] } | undefined> {
  return firstRow<{ id: string; client_name: string | null; redirect_uris: string[] }>(
    em,
    'select id, client_name, redirect_uris from oauth_clients where id = ?',
    [id],
  );
}

export interface AuthorizationRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  scope: string | null;
  resource: string;
  livemode: boolean;
  console_user_id: string | null;
  csrf_hash: string;
}

/** A new authorization request, valid for `minutes`. */
export async function insertAuthorization(
  em: EntityManager,
  row: Omit<AuthorizationRow, 'id' | 'console_user_id'> & { handle_hash: string },
  minutes: number,
): Promise<void> {
  await em.execute(
    `insert into oauth_authorizations (id, handle_hash, csrf_hash, client_id, redirect_uri, state, code_challenge, scope, resource, livemode, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + interval '${minutes} minutes')`,
    [
      newId('oaz'),
      row.handle_hash,
      row.csrf_hash,
      row.client_id,
      row.redirect_uri,
      row.state,
      row.code_challenge,
      row.scope,
      row.resource,
      row.livemode,
    ],
  );
}

/** The request of this handle while it is unanswered and unexpired. */
export async function selectPendingAuthorization(
  em: EntityManager,
  handleHash: string,
): Promise<AuthorizationRow | undefined> {
  return firstRow<AuthorizationRow>(
    em,
    `select * from oauth_authorizations where handle_hash = ? and code_hash is null and used_at is null and expires_at > now()`,
    [handleHash],
  );
}

export async function setAuthorizationUser(em: EntityManager, id: string, userId: string): Promise<void> {
  await em.execute('update oauth_authorizations set console_user_id = ? where id = ?', [userId, id]);
}

/** Gives the unanswered request its code (valid for `seconds`); false when it was already answered. */
export async function setAuthorizationCode(
  em: EntityManager,
  id: string,
  codeHash: string,
  merchantIds: string[] | null,
  seconds: number,
): Promise<boolean> {
  return anyRow(
    em,
    `update oauth_authorizations set code_hash = ?, merchant_ids = ${merchantIds ? '?::text[]' : 'null'},
            expires_at = now() + interval '${seconds} seconds'
      where id = ? and code_hash is null and used_at is null returning id`,
    [codeHash, ...(merchantIds ? [merchantIds] : []), id],
  );
}

export async function markAuthorizationUsed(em: EntityManager, id: string): Promise<void> {
  await em.execute('update oauth_authorizations set used_at = now() where id = ?', [id]);
}

export interface TakenCode {
  id: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  livemode: boolean;
  scope: string | null;
  console_user_id: string;
  merchant_ids: string[] | null;
  account_id: string | null;
  expired: boolean;
}

/** Uses up the unused code of an enabled user in one statement; undefined when there is none. */
export async function takeAuthorizationCode(
  em: EntityManager,
  codeHash: string,
): Promise<TakenCode | undefined> {
  return firstRow<TakenCode>(
    em,
    `update oauth_authorizations a set used_at = now()
       from console_users u
      where a.code_hash = ? and a.used_at is null and u.id = a.console_user_id and u.disabled_at is null
      returning a.id, a.client_id, a.redirect_uri, a.code_challenge, a.resource, a.livemode, a.scope, a.console_user_id,
                a.merchant_ids, u.account_id, a.expires_at < now() as expired`,
    [codeHash],
  );
}

/** The grant a used code was exchanged for, locking the code's row (waits for an exchange in progress). */
export async function lockGrantOfUsedCode(em: EntityManager, codeHash: string): Promise<string | null> {
  const rows: { grant_id: string | null }[] = await em.execute(
    'select grant_id from oauth_authorizations where code_hash = ? and used_at is not null for update',
    [codeHash],
  );
  return rows[0]?.grant_id ?? null;
}

/** Records the grant of an exchanged code and links the code to it. */
export async function insertGrant(
  em: EntityManager,
  code: TakenCode & { account_id: string },
): Promise<string> {
  const grantId = newId('ogr');
  await em.execute(
    `insert into oauth_grants (id, client_id, console_user_id, account_id, livemode, merchant_ids, resource, scope)
     values (?, ?, ?, ?, ?, ${code.merchant_ids ? '?::text[]' : 'null'}, ?, ?)`,
    [
      grantId,
      code.client_id,
      code.console_user_id,
      code.account_id,
      code.livemode,
      ...(code.merchant_ids ? [code.merchant_ids] : []),
      code.resource,
      code.scope,
    ],
  );
  await em.execute('update oauth_authorizations set grant_id = ? where id = ?', [grantId, code.id]);
  return grantId;
}

export async function revokeGrant(em: EntityManager, grantId: string): Promise<void> {
  await em.execute('update oauth_grants set revoked_at = coalesce(revoked_at, now()) where id = ?', [
    grantId,
  ]);
}

/** Every grant the console user gave stops working (a scope change, a disabled user). */
export async function revokeGrantsOfConsoleUser(em: EntityManager, consoleUserId: string): Promise<void> {
  await em.execute(
    'update oauth_grants set revoked_at = coalesce(revoked_at, now()) where console_user_id = ?',
    [consoleUserId],
  );
}

/** Stores an access token (valid `accessSeconds`) and a refresh token (valid `refreshDays`) of the grant. */
export async function insertTokenPair(
  em: EntityManager,
  grantId: string,
  hashes: { access: string; refresh: string },
  lifetimes: { accessSeconds: number; refreshDays: number },
): Promise<void> {
  await em.execute(
    `insert into oauth_tokens (token_hash, grant_id, kind, expires_at) values
       (?, ?, 'access', now() + interval '${lifetimes.accessSeconds} seconds'),
       (?, ?, 'refresh', now() + interval '${lifetimes.refreshDays} days')`,
    [hashes.access, grantId, hashes.refresh, grantId],
  );
}

export interface UsedRefreshToken {
  grant_id: string;
  first_use: boolean;
  expired: boolean;
  client_id: string;
  resource: string;
  scope: string | null;
  /** The grant is not revoked and its user not disabled. */
  live: boolean;
}

/** Marks the refresh token used (its first use is kept) and returns it with its grant; undefined when unknown. */
export async function useRefreshToken(
  em: EntityManager,
  tokenHash: string,
): Promise<UsedRefreshToken | undefined> {
  return firstRow<UsedRefreshToken>(
    em,
    `with previous as (select token_hash, used_at from oauth_tokens where token_hash = ? and kind = 'refresh' for update)
       update oauth_tokens t set used_at = coalesce(t.used_at, now())
         from previous p, oauth_grants g join console_users u on u.id = g.console_user_id
        where t.token_hash = p.token_hash and g.id = t.grant_id
       returning t.grant_id, p.used_at is null as first_use, t.expires_at < now() as expired, g.client_id, g.resource, g.scope,
                 (g.revoked_at is null and u.disabled_at is null) as live`,
    [tokenHash],
  );
}

export async function selectToken(
  em: EntityManager,
  tokenHash: string,
): Promise<{ grant_id: string; kind: string; client_id: string } | undefined> {
  return firstRow<{ grant_id: string; kind: string; client_id: string }>(
    em,
    'select t.grant_id, t.kind, g.client_id from oauth_tokens t join oauth_grants g on g.id = t.grant_id where t.token_hash = ?',
    [tokenHash],
  );
}

export async function expireToken(em: EntityManager, tokenHash: string): Promise<void> {
  await em.execute('update oauth_tokens set expires_at = least(expires_at, now()) where token_hash = ?', [
    tokenHash,
  ]);
}

export interface AccessTokenScope {
  grant_id: string;
  account_id: string;
  livemode: boolean;
  merchant_ids: string[] | null;
  resource: string;
  scope: string | null;
  rate_limit_per_minute: number | null;
}

/** The live access token's grant and its account's rate limit. */
export async function selectAccessTokenScope(
  em: EntityManager,
  tokenHash: string,
): Promise<AccessTokenScope | undefined> {
  return firstRow<AccessTokenScope>(
    em,
    `select g.id as grant_id, g.account_id, g.livemode, g.merchant_ids, g.resource, g.scope, a.rate_limit_per_minute
         from oauth_tokens t
         join oauth_grants g on g.id = t.grant_id
         join console_users u on u.id = g.console_user_id
         join accounts a on a.id = g.account_id
        where t.token_hash = ? and t.kind = 'access' and t.expires_at > now() and g.revoked_at is null and u.disabled_at is null`,
    [tokenHash],
  );
}

export interface ConnectedClientRow {
  id: string;
  client_id: string;
  client_name: string | null;
  livemode: boolean;
  merchant_ids: string[] | null;
  scope: string | null;
  created_at: Date;
  last_used_at: Date | null;
}

/** The user's live grants with their client and when each last got tokens, newest first. */
export function selectConnectedClients(
  em: EntityManager,
  consoleUserId: string,
): Promise<ConnectedClientRow[]> {
  return em.execute(
    `select g.id, g.client_id, c.client_name, g.livemode, g.merchant_ids, g.scope, g.created_at,
            (select max(t.created_at) from oauth_tokens t where t.grant_id = g.id) as last_used_at
       from oauth_grants g join oauth_clients c on c.id = g.client_id
      where g.console_user_id = ? and g.revoked_at is null
      order by g.created_at desc, g.id desc`,
    [consoleUserId],
  );
}

/** Revokes the user's live grant; undefined when it is not one. */
export async function revokeGrantOfUser(
  em: EntityManager,
  consoleUserId: string,
  grantId: string,
): Promise<{ id: string; client_id: string; livemode: boolean } | undefined> {
  return firstRow<{ id: string; client_id: string; livemode: boolean }>(
    em,
    `update oauth_grants set revoked_at = now()
      where id = ? and console_user_id = ? and revoked_at is null
      returning id, client_id, livemode`,
    [grantId, consoleUserId],
  );
}
