import { newId, type EntityManager } from '@cfdi/db';
import { OAuthError } from './oauth-error';
import { insertOAuthClient, selectOAuthClient } from './oauth-repository';

export interface OAuthClient {
  id: string;
  clientName: string | null;
  redirectUris: string[];
}

/**
 * Redirect URIs a client may register: https anywhere, http only on a loopback address (RFC 8252 §7.3: desktop
 * clients listen there), or a private-use scheme of a native app (`com.example.app:/cb`). Never javascript:, data:
 * or file:, never a fragment (RFC 6749 §3.1.2), and never user information (`https://user:pw@host/cb`: a name
 * before the host is a known way to make an address look like it goes somewhere else, and no client needs one).
 */
function checkRedirectUri(value: unknown): string {
  if (typeof value !== 'string')
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be strings');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError('invalid_redirect_uri', `${value} is not an absolute URI`);
  }
  // `new URL` drops an empty fragment (`…/cb#`) and an empty userinfo (`https://@host`): check the text itself.
  if (value.includes('#')) throw new OAuthError('invalid_redirect_uri', `${value} must not have a fragment`);
  if (url.username || url.password || /^[^:/?#]+:\/\/[^/?#]*@/.test(value))
    throw new OAuthError('invalid_redirect_uri', `${value} must not carry user information (user:password@)`);
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) return value;
  if (
    ['http:', 'javascript:', 'data:', 'file:', 'about:', 'blob:', 'vbscript:'].includes(url.protocol) ||
    !url.protocol.slice(0, -1).includes('.')
  ) {
    throw new OAuthError(
      'invalid_redirect_uri',
      `${value}: use https, http on a loopback address, or a reverse-domain private-use scheme`,
    );
  }
  return value;
}

/**
 * Dynamic client registration (RFC 7591). Every client is public (`token_endpoint_auth_method: none`): desktop and
 * IDE agents cannot keep a secret, and PKCE binds each code to the client that asked for it. Only the authorization
 * code and refresh token grants are offered.
 */
export async function registerOAuthClient(em: EntityManager, metadata: Record<string, unknown>) {
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list 1 to 10 URIs');
  }
  const redirectUris = uris.map(checkRedirectUri);
  const grantTypes = (metadata.grant_types as unknown[] | undefined) ?? ['authorization_code'];
  if (
    !Array.isArray(grantTypes) ||
    grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')
  ) {
    throw new OAuthError(
      'invalid_client_metadata',
      'grant_types may only be authorization_code and refresh_token',
    );
  }
  const responseTypes = (metadata.response_types as unknown[] | undefined) ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types may only be code');
  }
  const clientName = typeof metadata.client_name === 'string' ? metadata.client_name.slice(0, 200) : null;
  const registered = {
    client_name: clientName ?? undefined,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'read write',
  };
  const id = newId('ocl');
  await insertOAuthClient(em, {
    id,
    client_name: clientName,
    redirect_uris: redirectUris,
    metadata: JSON.stringify(registered),
  });
  return { client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000), ...registered };
}

export async function retrieveOAuthClient(em: EntityManager, id: string): Promise<OAuthClient | null> {
  const row = await selectOAuthClient(em, id);
  return row ? { id: row.id, clientName: row.client_name, redirectUris: row.redirect_uris } : null;
}
