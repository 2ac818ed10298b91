import { createHash, timingSafeEqual } from 'node:crypto';
import { newId, type EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { OAuthError } from './oauth-error';
import { randomToken, tokenHash } from './random-token';
import { scopeAllowsWrite } from './scopes';

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
  await em.execute(
    `insert into oauth_tokens (token_hash, grant_id, kind, expires_at) values
       (?, ?, 'access', now() + interval '${ACCESS_TOKEN_SECONDS} seconds'),
       (?, ?, 'refresh', now() + interval '${REFRESH_TOKEN_DAYS} days')`,
    [tokenHash(access), grantId, tokenHash(refresh), grantId],
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
    const rows: {
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
    }[] = await tx.execute(
      `update oauth_authorizations a set used_at = now()
         from console_users u
        where a.code_hash = ? and a.used_at is null and u.id = a.console_user_id and u.disabled_at is null
        returning a.id, a.client_id, a.redirect_uri, a.code_challenge, a.resource, a.livemode, a.scope, a.console_user_id,
                  a.merchant_ids, u.account_id, a.expires_at < now() as expired`,
      [tokenHash(input.code)],
    );
    const row = rows[0];
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

    const grantId = newId('ogr');
    await tx.execute(
      `insert into oauth_grants (id, client_id, console_user_id, account_id, livemode, merchant_ids, resource, scope)
       values (?, ?, ?, ?, ?, ${row.merchant_ids ? '?::text[]' : 'null'}, ?, ?)`,
      [
        grantId,
        row.client_id,
        row.console_user_id,
        row.account_id,
        row.livemode,
        ...(row.merchant_ids ? [row.merchant_ids] : []),
        row.resource,
        row.scope,
      ],
    );
    await tx.execute('update oauth_authorizations set grant_id = ? where id = ?', [grantId, row.id]);
    return issueTokens(tx, grantId, row.scope);
  });
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}

/** A code that was already exchanged: its grant is revoked (waiting, through the row lock, for one in progress). */
async function revokeGrantOfUsedCode(em: EntityManager, code: string): Promise<void> {
  const rows: { grant_id: string | null }[] = await em.execute(
    'select grant_id from oauth_authorizations where code_hash = ? and used_at is not null for update',
    [tokenHash(code)],
  );
  if (rows[0]?.grant_id) await revokeGrant(em, rows[0].grant_id);
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
  const rows: {
    grant_id: string;
    first_use: boolean;
    expired: boolean;
    client_id: string;
    resource: string;
    scope: string | null;
    live: boolean;
  }[] = await em.execute(
    `with previous as (select token_hash, used_at from oauth_tokens where token_hash = ? and kind = 'refresh' for update)
       update oauth_tokens t set used_at = coalesce(t.used_at, now())
         from previous p, oauth_grants g join console_users u on u.id = g.console_user_id
        where t.token_hash = p.token_hash and g.id = t.grant_id
       returning t.grant_id, p.used_at is null as first_use, t.expires_at < now() as expired, g.client_id, g.resource, g.scope,
                 (g.revoked_at is null and u.disabled_at is null) as live`,
    [tokenHash(input.refreshToken)],
  );
  const row = rows[0];
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

async function revokeGrant(em: EntityManager, grantId: string): Promise<void> {
  await em.execute('update oauth_grants set revoked_at = coalesce(revoked_at, now()) where id = ?', [
    grantId,
  ]);
}

/**
 * Token revocation (RFC 7009): a refresh token revokes its whole grant (every access token of it stops working at
 * once: each call checks the grant); an access token ends alone. Unknown tokens and other clients' tokens are
 * answered the same way, as the RFC asks.
 */
export async function revokeOAuthToken(em: EntityManager, token: string, clientId: string): Promise<void> {
  const rows: { grant_id: string; kind: string; client_id: string }[] = await em.execute(
    'select t.grant_id, t.kind, g.client_id from oauth_tokens t join oauth_grants g on g.id = t.grant_id where t.token_hash = ?',
    [tokenHash(token)],
  );
  const row = rows[0];
  if (!row || row.client_id !== clientId) return;
  if (row.kind === 'refresh') await revokeGrant(em, row.grant_id);
  else
    await em.execute('update oauth_tokens set expires_at = least(expires_at, now()) where token_hash = ?', [
      tokenHash(token),
    ]);
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
  const rows: {
    grant_id: string;
    account_id: string;
    livemode: boolean;
    merchant_ids: string[] | null;
    resource: string;
    scope: string | null;
    rate_limit_per_minute: number | null;
  }[] = await em.execute(
    `select g.id as grant_id, g.account_id, g.livemode, g.merchant_ids, g.resource, g.scope, a.rate_limit_per_minute
         from oauth_tokens t
         join oauth_grants g on g.id = t.grant_id
         join console_users u on u.id = g.console_user_id
         join accounts a on a.id = g.account_id
        where t.token_hash = ? and t.kind = 'access' and t.expires_at > now() and g.revoked_at is null and u.disabled_at is null`,
    [tokenHash(token)],
  );
  const row = rows[0];
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
