import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  exchangeAuthorizationCode,
  OAuthError,
  refreshAccessToken,
  registerOAuthClient,
  revokeOAuthToken,
} from '@cfdi/services';
import { acceptForms, answerOAuthErrors, field } from './forms';

const OAuthErrorSchema = Type.Object({ error: Type.String(), error_description: Type.String() });
const TokenSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_token: Type.String(),
  scope: Type.String(),
});
const FormSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));

/** Dynamic client registration, the token endpoint and revocation: JSON answers, OAuth error bodies. */
export const oauthTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptForms(app);
  answerOAuthErrors(app);
  const em = () => app.deps.orm.em.fork();

  app.post(
    '/oauth/register',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Register an OAuth client',
        operationId: 'createOAuthClient',
        description:
          'RFC 7591 dynamic client registration. Every client is public (token_endpoint_auth_method none) and uses PKCE S256.',
        body: Type.Object({ redirect_uris: Type.Array(Type.String()) }, { additionalProperties: true }),
        response: {
          201: Type.Object({ client_id: Type.String() }, { additionalProperties: true }),
          400: OAuthErrorSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await registerOAuthClient(em(), request.body)),
  );

  app.post(
    '/oauth/token',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Exchange a code or a refresh token',
        operationId: 'createOAuthToken',
        description:
          'grant_type authorization_code (code, redirect_uri, client_id, code_verifier) or refresh_token (refresh_token, client_id). ' +
          'Access tokens last 15 minutes and are bound to one account, one mode (the resource) and the merchants granted; each refresh token works once.',
        body: FormSchema,
        response: { 200: TokenSchema, 400: OAuthErrorSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const clientId = field(body.client_id);
      const resource = field(body.resource) || undefined;
      if (!clientId) throw new OAuthError('invalid_client', 'client_id is required.', 401);
      let tokens;
      if (field(body.grant_type) === 'authorization_code') {
        tokens = await exchangeAuthorizationCode(em(), {
          code: field(body.code),
          clientId,
          redirectUri: field(body.redirect_uri),
          codeVerifier: field(body.code_verifier),
          resource,
        });
      } else if (field(body.grant_type) === 'refresh_token') {
        tokens = await refreshAccessToken(em(), {
          refreshToken: field(body.refresh_token),
          clientId,
          resource,
        });
      } else {
        throw new OAuthError(
          'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token.',
        );
      }
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
    },
  );

  app.post(
    '/oauth/revoke',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Revoke a token',
        operationId: 'revokeOAuthToken',
        description:
          'RFC 7009. A refresh token revokes its whole authorization (its access tokens stop at once); an access token ends alone. Always 200.',
        body: FormSchema,
        response: { 200: Type.Object({}), 400: OAuthErrorSchema },
      },
    },
    async (request) => {
      const token = field(request.body.token);
      if (!token) throw new OAuthError('invalid_request', 'token is required.');
      await revokeOAuthToken(em(), token, field(request.body.client_id));
      return {};
    },
  );
};
