import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateAccessToken, authenticateKey, UnauthorizedError, type Scope } from '@cfdi/services';
import { bearerToken } from '../plugins/auth';

export const MCP_ENDPOINTS = [
  { path: '/mcp', livemode: true },
  { path: '/mcp/test', livemode: false },
] as const;

export const resourceUrl = (app: FastifyInstance, path: string) =>
  `${app.deps.config.api.publicBaseUrl}${path}`;
export const resourceMetadataUrl = (app: FastifyInstance, path: string) =>
  `${app.deps.config.api.publicBaseUrl}/.well-known/oauth-protected-resource${path}`;

/**
 * 401 for the tool server: `WWW-Authenticate` points the client at the protected resource metadata (RFC 9728 §5.1),
 * where an interactive client finds the authorization server and starts OAuth.
 */
function unauthorized(
  app: FastifyInstance,
  path: string,
  detail: string,
  tokenSent: boolean,
): UnauthorizedError {
  const error = new UnauthorizedError(detail);
  const invalid = tokenSent ? ', error="invalid_token"' : '';
  error.extra.headers = {
    'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl(app, path)}"${invalid}`,
  };
  return error;
}

const otherEndpoint = (app: FastifyInstance, livemode: boolean) =>
  resourceUrl(app, livemode ? '/mcp' : '/mcp/test');

/**
 * Who is calling `/mcp` or `/mcp/test`: an API key (`sk_live_…` only on /mcp, `sk_test_…` only on /mcp/test) or an
 * OAuth access token issued for exactly this endpoint. A credential for the other endpoint is refused with a message
 * naming it. `canWrite` is false for a grant of the `read` scope alone: it lists and calls the read-only tools only.
 */
export async function authenticateMcp(
  app: FastifyInstance,
  request: FastifyRequest,
  endpoint: (typeof MCP_ENDPOINTS)[number],
) {
  let token: string;
  try {
    token = bearerToken(request, 'API key or OAuth access token');
  } catch (error) {
    throw unauthorized(app, endpoint.path, (error as Error).message, false);
  }
  const em = app.deps.orm.em.fork();
  const mode = (livemode: boolean) => (livemode ? 'live' : 'test');
  if (token.startsWith('sk_')) {
    const key = await authenticateKey(em, token);
    if (!key) throw unauthorized(app, endpoint.path, 'Invalid, revoked or unknown API key.', true);
    if (key.livemode !== endpoint.livemode) {
      throw unauthorized(
        app,
        endpoint.path,
        `This is a ${mode(key.livemode)} API key; use it with ${otherEndpoint(app, key.livemode)}.`,
        true,
      );
    }
    const scope: Scope = {
      accountId: key.accountId,
      livemode: key.livemode,
      keyId: key.keyId,
      merchantIds: key.merchantIds,
    };
    // An API key is not an OAuth grant: it reaches every tool, as it reaches every REST route.
    return { scope, rateLimitPerMinute: key.rateLimitPerMinute, canWrite: true };
  }
  const grant = await authenticateAccessToken(em, token);
  if (!grant) throw unauthorized(app, endpoint.path, 'Invalid, expired or revoked access token.', true);
  if (grant.resource !== resourceUrl(app, endpoint.path)) {
    throw unauthorized(
      app,
      endpoint.path,
      `This access token was issued for ${grant.resource}; use it there.`,
      true,
    );
  }
  const { resource: _resource, rateLimitPerMinute, canWrite, ...scope } = grant;
  return { scope, rateLimitPerMinute, canWrite };
}
