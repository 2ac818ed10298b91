import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { OAUTH_SCOPES } from '@cfdi/services';
import { MCP_ENDPOINTS, resourceUrl } from '../mcp/auth';

const ProtectedResourceSchema = Type.Object({
  resource: Type.String(),
  authorization_servers: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
  resource_documentation: Type.String(),
});

/** RFC 9728 protected resource metadata and RFC 8414 authorization server metadata; public, no key. */
export const oauthMetadataRoutes: FastifyPluginAsync = async (app) => {
  const base = app.deps.config.api.publicBaseUrl;
  const describe = (resource: string, name: string) => ({
    resource,
    authorization_servers: [base],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: name,
    resource_documentation: `${app.deps.config.api.docsUrl}/mcp`,
  });

  app.get(
    '/.well-known/oauth-protected-resource',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Protected resource metadata',
        operationId: 'retrieveProtectedResourceMetadata',
        description:
          'RFC 9728 metadata for the whole API origin (covers /mcp and /mcp/test): where to get OAuth tokens.',
        response: { 200: ProtectedResourceSchema },
      },
    },
    async () => describe(base, 'CFDI tool server'),
  );

  for (const endpoint of MCP_ENDPOINTS) {
    const mode = endpoint.livemode ? 'live' : 'test';
    app.get(
      `/.well-known/oauth-protected-resource${endpoint.path}`,
      {
        schema: {
          tags: ['oauth'],
          summary: `Protected resource metadata of ${endpoint.path}`,
          operationId: endpoint.livemode
            ? 'retrieveMcpLiveResourceMetadata'
            : 'retrieveMcpTestResourceMetadata',
          description: `RFC 9728 metadata of the ${mode}-mode tool server; WWW-Authenticate on its 401s points here.`,
          response: { 200: ProtectedResourceSchema },
        },
      },
      async () => describe(resourceUrl(app, endpoint.path), `CFDI tool server (${mode} mode)`),
    );
  }

  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Authorization server metadata',
        operationId: 'retrieveAuthorizationServerMetadata',
        description:
          'RFC 8414 metadata: authorization code with PKCE S256 only, public clients registered dynamically (RFC 7591), refresh tokens that rotate, revocation (RFC 7009).',
        response: { 200: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async () => ({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...OAUTH_SCOPES],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${app.deps.config.api.docsUrl}/mcp`,
    }),
  );
};
