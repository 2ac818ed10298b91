import { createHash, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { OAuthError } from './oauth-error';
import { randomToken, tokenHash } from './random-token';
import { scopeAllowsWrite } from './scopes';
import {
  expireToken,
  insertGrant,
  insertTokenPair,
  lockGrantOfUsedCode,
  revokeGrant,
  selectAccessTokenScope,
  selectToken,
  takeAuthorizationCode,
  useRefreshToken,
} from './oauth-repository';

/** Access tokens are short-lived (a leaked one is useful for minutes); refresh tokens rotate on every use. */
export const ACCESS_TOKEN_SECONDS = 900;
const REFRESH_TOKEN_DAYS = 30;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function issueTokens(em: EntityManager, grantId: string, scope: string | null): Promise<TokenResponse> {
  const access = randomToken('cfdi_at_');
  const refresh = randomToken('cfdi_rt_');
  await insertTokenPair(
    em,
    grantId,
    { access: tokenHash(access), refresh: tokenHash(refresh) },
    { accessSeconds: ACCESS_TOKEN_SECONDS, refreshDays: REFRESH_TOKEN_DAYS },
  );
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: scope === null || scopeAllowsWrite(scope) ? 'read write' : scope,
  };
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) must equal the challenge sent with the request. */
function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * The authorization code grant. The code is taken in one statement (a second exchange of the same code finds it
 * used), then checked against the client, redirect URI, PKCE verifier and resource, and becomes a grant bound to
 * the user's account, the mode of the resource and the merchants chosen on the consent page. A code presented
 * again revokes the grant it was exchanged for (OAuth 2.1 §4.1.3): whoever replays it has it from somewhere it
 * should not be, so every access and refresh token issued from it stops working.
 */
export async function exchangeAuthorizationCode(
  em: EntityManager,
  input: { code: string; clientId: string; redirectUri: string; codeVerifier: string; resource?: string },
): Promise<TokenResponse> {
  // One transaction holds the code's row from taking it to recording its grant: a replay waits for the grant.
  // A refusal is returned, not thrown, so the code stays used up when the first attempt was wrong.
  const outcome = await em.transactional(async (tx): Promise<TokenResponse | OAuthError> => {
    const row = await takeAuthorizationCode(tx, tokenHash(input.code));
    const invalid = (why: string) => new OAuthError('invalid_grant', why);
    if (!row) {
      await revokeGrantOfUsedCode(tx, input.code);
      return invalid('The authorization code is invalid, expired or already used.');
    }
    if (row.expired) return invalid('The authorization code is invalid, expired or already used.');
    if (row.client_id !== input.clientId)
      return invalid('The authorization code was issued to another client.');
    if (row.redirect_uri !== input.redirectUri)
      return invalid('redirect_uri differs from the authorization request.');
    if (!pkceMatches(input.codeVerifier, row.code_challenge))
      return invalid('code_verifier does not match the code_challenge.');
    if (input.resource && input.resource !== row.resource)
      return new OAuthError('invalid_target', `The code was issued for ${row.resource}.`);
    if (!row.account_id) return invalid('The user who approved belongs to no account.');

    const grantId = await insertGrant(tx, { ...row, account_id: row.account_id });
    return issueTokens(tx, grantId, row.scope);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** A code that was already exchanged: its grant is revoked (waiting, through the row lock, for one in progress). */
async function revokeGrantOfUsedCode(em: EntityManager, code: string): Promise<void> {
  const grantId = await lockGrantOfUsedCode(em, tokenHash(code));
  if (grantId) await revokeGrant(em, grantId);
}

/**
 * The refresh token grant with rotation (OAuth 2.1 §4.3.1): each refresh token works once and returns a new pair.
 * A refresh token presented a second time means it leaked (or the client lost an answer): the whole grant is
 * revoked, so whoever holds the newer token is signed out too.
 */
export async function refreshAccessToken(
  em: EntityManager,
  input: { refreshToken: string; clientId: string; resource?: string },
): Promise<TokenResponse> {
  const row = await useRefreshToken(em, tokenHash(input.refreshToken));
  if (!row || row.client_id !== input.clientId)
    throw new OAuthError('invalid_grant', 'The refresh token is invalid.');
  if (!row.first_use) {
    await revokeGrant(em, row.grant_id);
    throw new OAuthError(
      'invalid_grant',
      'The refresh token was already used; the authorization is revoked. Sign in again.',
    );
  }
  if (row.expired || !row.live)
    throw new OAuthError('invalid_grant', 'The refresh token expired or its authorization was revoked.');
  if (input.resource && input.resource !== row.resource)
    throw new OAuthError('invalid_target', `The grant is for ${row.resource}.`);
  return issueTokens(em, row.grant_id, row.scope);
}

/**
 * Token revocation (RFC 7009): a refresh token revokes its whole grant (every access token of it stops working at
 * once: each call checks the grant); an access token ends alone. Unknown tokens and other clients' tokens are
 * answered the same way, as the RFC asks.
 */
export async function revokeOAuthToken(em: EntityManager, token: string, clientId: string): Promise<void> {
  const row = await selectToken(em, tokenHash(token));
  if (!row || row.client_id !== clientId) return;
  if (row.kind === 'refresh') await revokeGrant(em, row.grant_id);
  else await expireToken(em, tokenHash(token));
}

export interface OAuthAuthenticated extends Scope {
  resource: string;
  rateLimitPerMinute: number | null;
  /** Whether the grant's scope allows the write tools (./scopes.ts). */
  canWrite: boolean;
}

/** Resolves an access token to the scope it was granted (`keyId` is the grant id), or null when it is not live. */
export async function authenticateAccessToken(
  em: EntityManager,
  token: string,
): Promise<OAuthAuthenticated | null> {
  if (!token.startsWith('cfdi_at_')) return null;
  const row = await selectAccessTokenScope(em, tokenHash(token));
  if (!row) return null;
  return {
    accountId: row.account_id,
    livemode: row.livemode,
    keyId: row.grant_id,
    merchantIds: row.merchant_ids,
    resource: row.resource,
    rateLimitPerMinute: row.rate_limit_per_minute,
    canWrite: scopeAllowsWrite(row.scope),
  };
}
