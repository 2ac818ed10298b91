import type { EntityManager } from '@cfdi/db';
import type { ConsoleUserView } from '../console-users';
import { OAuthError } from './oauth-error';
import { randomToken, tokenHash } from './random-token';
import { selectLiveMerchantNames } from '../merchants/merchant-repository';
import {
  insertAuthorization,
  markAuthorizationUsed,
  selectPendingAuthorization,
  setAuthorizationCode,
  setAuthorizationUser,
  type AuthorizationRow,
} from './oauth-repository';

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
  await insertAuthorization(
    em,
    {
      handle_hash: tokenHash(handle),
      csrf_hash: tokenHash(csrf),
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      state: request.state,
      code_challenge: request.codeChallenge,
      scope: request.scope,
      resource: request.resource,
      livemode: request.livemode,
    },
    REQUEST_MINUTES,
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
  const row = await selectPendingAuthorization(em, tokenHash(handle));
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
  await setAuthorizationUser(em, id, userId);
}

/** The merchants a user may grant in a mode: the account's, narrowed by the user's own limit. */
export async function grantableMerchants(
  em: EntityManager,
  user: ConsoleUserView,
  livemode: boolean,
): Promise<{ id: string; rfc: string; legalName: string }[]> {
  if (!user.accountId) return [];
  const rows = await selectLiveMerchantNames(em, { accountId: user.accountId, livemode });
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
  const answered = !(await setAuthorizationCode(em, id, tokenHash(code), merchantIds, CODE_SECONDS));
  if (answered) throw new OAuthError('invalid_request', 'This authorization request was already answered.');
  return code;
}

export async function denyAuthorization(em: EntityManager, id: string): Promise<void> {
  await markAuthorizationUsed(em, id);
}
