import { newId, type EntityManager } from '@cfdi/db';
import type { ConsoleUserView } from '../console-users';
import { OAuthError } from './oauth-error';
import { randomToken, tokenHash } from './random-token';

/** How long the sign-in and consent pages stay usable, and how long an issued code may wait for its exchange. */
const REQUEST_MINUTES = 10;
const CODE_SECONDS = 60;

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  scope: string | null;
  /** The MCP endpoint the token is for (RFC 8707); its mode is the token's mode. */
  resource: string;
  livemode: boolean;
}

export interface PendingAuthorization extends AuthorizationRequest {
  id: string;
  consoleUserId: string | null;
}

interface AuthorizationRow {
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

const toPending = (row: AuthorizationRow): PendingAuthorization => ({
  id: row.id,
  clientId: row.client_id,
  redirectUri: row.redirect_uri,
  state: row.state,
  codeChallenge: row.code_challenge,
  scope: row.scope,
  resource: row.resource,
  livemode: row.livemode,
  consoleUserId: row.console_user_id,
});

/**
 * Records a validated authorization request. The pages carry `handle` in a hidden field and the browser carries
 * `csrf` in a SameSite cookie; both are needed to act on the request, so another site can neither post the forms
 * nor make a victim's browser finish a request the attacker started.
 */
export async function startAuthorization(
  em: EntityManager,
  request: AuthorizationRequest,
): Promise<{ handle: string; csrf: string }> {
  const handle = randomToken();
  const csrf = randomToken();
  await em.execute(
    `insert into oauth_authorizations (id, handle_hash, csrf_hash, client_id, redirect_uri, state, code_challenge, scope, resource, livemode, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + interval '${REQUEST_MINUTES} minutes')`,
    [
      newId('oaz'),
      tokenHash(handle),
      tokenHash(csrf),
      request.clientId,
      request.redirectUri,
      request.state,
      request.codeChallenge,
      request.scope,
      request.resource,
      request.livemode,
    ],
  );
  return { handle, csrf };
}

/** The pending request behind a form post, or null when the handle, the cookie or the time does not fit. */
export async function loadPendingAuthorization(
  em: EntityManager,
  handle: string,
  csrf: string | undefined,
): Promise<PendingAuthorization | null> {
  if (!handle || !csrf) return null;
  const rows: AuthorizationRow[] = await em.execute(
    `select * from oauth_authorizations where handle_hash = ? and code_hash is null and used_at is null and expires_at > now()`,
    [tokenHash(handle)],
  );
  const row = rows[0];
  return row && row.csrf_hash === tokenHash(csrf) ? toPending(row) : null;
}

/**
 * Why a signed-in console user cannot approve access to an MCP endpoint, or null when they can: a grant acts for one
 * account (platform users without one have nothing to grant), in the endpoint's mode, which the user's limit allows.
 */
export function oauthConsentRefusal(
  user: Pick<ConsoleUserView, 'accountId' | 'livemode'>,
  livemode: boolean,
): 'no_account' | 'wrong_mode' | null {
  if (!user.accountId) return 'no_account';
  if (user.livemode !== null && user.livemode !== livemode) return 'wrong_mode';
  return null;
}

export async function attachSignedInUser(em: EntityManager, id: string, userId: string): Promise<void> {
  await em.execute('update oauth_authorizations set console_user_id = ? where id = ?', [userId, id]);
}

/** The merchants a user may grant in a mode: the account's, narrowed by the user's own limit. */
export async function grantableMerchants(
  em: EntityManager,
  user: ConsoleUserView,
  livemode: boolean,
): Promise<{ id: string; rfc: string; legalName: string }[]> {
  if (!user.accountId) return [];
  const rows: { id: string; rfc: string; legal_name: string }[] = await em.execute(
    'select id, rfc, legal_name from merchants where account_id = ? and livemode = ? and deleted_at is null order by id',
    [user.accountId, livemode],
  );
  return rows
    .filter((row) => !user.merchantIds || user.merchantIds.includes(row.id))
    .map((row) => ({ id: row.id, rfc: row.rfc, legalName: row.legal_name }));
}

/**
 * The user approved: the code is issued for the merchants chosen (`null` = all of the account's, only for a user
 * without a merchant limit) and can be exchanged once, within a minute.
 */
export async function approveAuthorization(
  em: EntityManager,
  id: string,
  merchantIds: string[] | null,
): Promise<string> {
  const code = randomToken('cfdi_ac_');
  const updated: unknown[] = await em.execute(
    `update oauth_authorizations set code_hash = ?, merchant_ids = ${merchantIds ? '?::text[]' : 'null'},
            expires_at = now() + interval '${CODE_SECONDS} seconds'
      where id = ? and code_hash is null and used_at is null returning id`,
    [tokenHash(code), ...(merchantIds ? [merchantIds] : []), id],
  );
  if (!updated.length)
    throw new OAuthError('invalid_request', 'This authorization request was already answered.');
  return code;
}

export async function denyAuthorization(em: EntityManager, id: string): Promise<void> {
  await em.execute('update oauth_authorizations set used_at = now() where id = ?', [id]);
}
