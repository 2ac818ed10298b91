import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  approveAuthorization,
  attachSignedInUser,
  denyAuthorization,
  ForbiddenError,
  grantableMerchants,
  grantedScope,
  scopeAllowsWrite,
  loadPendingAuthorization,
  retrieveConsoleUser,
  oauthConsentRefusal,
  retrieveOAuthClient,
  signInWithPolicy,
  SIGN_IN_LOCKOUT,
  startAuthorization,
  type PendingAuthorization,
} from '@cfdi/services';
import { MCP_ENDPOINTS, resourceUrl } from '../mcp/auth';
import { acceptForms, cookie, field, fields } from './forms';
import { consentPage, errorPage, loginPage } from './pages';
import { CONSENT_TEXTS } from './texts';
import { localeOf, type Locale } from '../i18n/locale';

const CSRF_COOKIE = 'cfdi_oauth_csrf';

const FormSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));
const html = { 200: Type.String({ description: 'HTML page' }) };

/** Pages that hold a secret form handle: never cached, never framed (clickjacking), no referrer leaks. */
function sendPage(reply: FastifyReply, locale: Locale, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .headers({
      'content-language': locale,
      vary: 'accept-language',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    })
    .send(body);
}

function redirectWith(
  reply: FastifyReply,
  issuer: string,
  pending: Pick<PendingAuthorization, 'redirectUri' | 'state'>,
  params: Record<string, string>,
): FastifyReply {
  const target = new URL(pending.redirectUri);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  if (pending.state !== null) target.searchParams.set('state', pending.state);
  target.searchParams.set('iss', issuer);
  return reply.code(302).header('cache-control', 'no-store').redirect(target.toString());
}

/**
 * The authorization endpoint and the console users' sign-in and consent pages. The console takes these pages over
 * once it exists; the flow behind them (services' oauth module) stays.
 */
export const oauthConsentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptForms(app);
  const em = () => app.deps.orm.em.fork();
  const issuer = app.deps.config.api.publicBaseUrl;
  const secure = issuer.startsWith('https:');

  app.get(
    '/oauth/authorize',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Start an authorization',
        operationId: 'authorizeOAuthClient',
        description:
          'OAuth 2.1 authorization endpoint: response_type=code, client_id, redirect_uri, code_challenge with code_challenge_method=S256, ' +
          'state, resource (the MCP endpoint: /mcp or /mcp/test; default /mcp/test). Shows the console sign-in page.',
        querystring: Type.Record(Type.String(), Type.String()),
        response: html,
      },
    },
    async (request, reply) => {
      const locale = localeOf(request.headers['accept-language']);
      const t = CONSENT_TEXTS[locale];
      const query = request.query as Record<string, string>;
      const client = query.client_id ? await retrieveOAuthClient(em(), query.client_id) : null;
      // Until the client and its redirect URI are known, errors are shown here, never sent to an unverified address.
      if (!client) return sendPage(reply, locale, 400, errorPage(locale, t.unknownClient));
      if (!query.redirect_uri || !client.redirectUris.includes(query.redirect_uri))
        return sendPage(reply, locale, 400, errorPage(locale, t.unregisteredRedirect));
      const back = { redirectUri: query.redirect_uri, state: query.state ?? null };
      if (query.response_type !== 'code')
        return redirectWith(reply, issuer, back, { error: 'unsupported_response_type' });
      if (
        !query.code_challenge ||
        query.code_challenge_method !== 'S256' ||
        !/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)
      ) {
        return redirectWith(reply, issuer, back, {
          error: 'invalid_request',
          error_description: 'PKCE with code_challenge_method=S256 is required.',
        });
      }
      const scope = grantedScope(query.scope);
      if (scope === null)
        return redirectWith(reply, issuer, back, {
          error: 'invalid_scope',
          error_description: `scope may be read, write or both (write includes read).`,
        });
      const resource = query.resource ?? resourceUrl(app, '/mcp/test');
      const endpoint = MCP_ENDPOINTS.find((e) => resourceUrl(app, e.path) === resource);
      if (!endpoint)
        return redirectWith(reply, issuer, back, {
          error: 'invalid_target',
          error_description: `Unknown resource ${resource}.`,
        });

      const { handle, csrf } = await startAuthorization(em(), {
        clientId: client.id,
        redirectUri: query.redirect_uri,
        state: query.state ?? null,
        codeChallenge: query.code_challenge,
        scope,
        resource,
        livemode: endpoint.livemode,
      });
      reply.header(
        'set-cookie',
        `${CSRF_COOKIE}=${csrf}; Path=/oauth; HttpOnly; SameSite=Strict; Max-Age=600${secure ? '; Secure' : ''}`,
      );
      return sendPage(
        reply,
        locale,
        200,
        loginPage(locale, {
          handle,
          clientName: client.clientName ?? client.id,
          livemode: endpoint.livemode,
        }),
      );
    },
  );

  /** The pending request a form belongs to: its handle and this browser's CSRF cookie must both match. */
  async function pendingOf(request: {
    body: Record<string, string | string[]>;
    headers: { cookie?: string };
  }) {
    const pending = await loadPendingAuthorization(
      em(),
      field(request.body.handle),
      cookie(request.headers.cookie, CSRF_COOKIE),
    );
    const client = pending ? await retrieveOAuthClient(em(), pending.clientId) : null;
    return pending && client ? { pending, clientName: client.clientName ?? client.id } : null;
  }
  const expired = (reply: FastifyReply, locale: Locale) =>
    sendPage(reply, locale, 400, errorPage(locale, CONSENT_TEXTS[locale].expired));

  app.post(
    '/oauth/authorize/login',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Sign in to authorize',
        operationId: 'signInOAuthConsole',
        description:
          'Console user sign-in for a pending authorization (form: handle, email, password). Throttled per IP and locked per user after repeated failures.',
        body: FormSchema,
        response: html,
      },
    },
    async (request, reply) => {
      const locale = localeOf(request.headers['accept-language']);
      const t = CONSENT_TEXTS[locale];
      const found = await pendingOf(request);
      if (!found) return expired(reply, locale);
      const { pending, clientName } = found;
      const email = field(request.body.email);
      const again = (status: number, error: string) =>
        sendPage(
          reply,
          locale,
          status,
          loginPage(locale, {
            handle: field(request.body.handle),
            clientName,
            livemode: pending.livemode,
            error,
            email,
          }),
        );

      // The console's sign-in policy (throttle shared with the console, lock-out, audit with channel oauth_consent).
      const result = await signInWithPolicy(
        { em: em(), redis: app.deps.redis },
        { email, password: field(request.body.password), ip: request.ip, channel: 'oauth_consent' },
        async (user) => {
          const refusal = oauthConsentRefusal(user, pending.livemode);
          if (refusal === 'no_account') throw new ForbiddenError(t.noAccount);
          if (refusal === 'wrong_mode') throw new ForbiddenError(t.wrongMode(pending.livemode));
          await attachSignedInUser(em(), pending.id, user.id);
          return { target: pending.id };
        },
      );
      if (!result.ok) {
        if (result.reason === 'throttled') return again(429, t.throttled(result.retryAfterSeconds));
        if (result.reason === 'forbidden') return again(403, result.message);
        return again(401, result.reason === 'locked' ? t.locked(SIGN_IN_LOCKOUT.minutes) : t.wrongPassword);
      }
      const { user } = result;
      return sendPage(
        reply,
        locale,
        200,
        consentPage(locale, {
          handle: field(request.body.handle),
          clientName,
          livemode: pending.livemode,
          canWrite: scopeAllowsWrite(pending.scope),
          email: user.email,
          allowAll: user.merchantIds === null,
          merchants: await grantableMerchants(em(), user, pending.livemode),
        }),
      );
    },
  );

  app.post(
    '/oauth/authorize/consent',
    {
      schema: {
        tags: ['oauth'],
        summary: 'Approve or deny an authorization',
        operationId: 'answerOAuthConsent',
        description:
          'Consent for a signed-in pending authorization (form: handle, decision approve|deny, merchant…, all_merchants). Redirects to the client with code or error.',
        body: FormSchema,
        response: { 302: Type.Null(), ...html },
      },
    },
    async (request, reply) => {
      const locale = localeOf(request.headers['accept-language']);
      const found = await pendingOf(request);
      const user = found?.pending.consoleUserId
        ? await retrieveConsoleUser(em(), found.pending.consoleUserId)
        : null;
      if (!found || !user) return expired(reply, locale);
      const { pending, clientName } = found;
      if (field(request.body.decision) !== 'approve') {
        await denyAuthorization(em(), pending.id);
        return redirectWith(reply, issuer, pending, { error: 'access_denied' });
      }
      const grantable = await grantableMerchants(em(), user, pending.livemode);
      const chosen = fields(request.body.merchant);
      const all = field(request.body.all_merchants) === '1' && user.merchantIds === null;
      if (!all && (chosen.length === 0 || chosen.some((id) => !grantable.some((m) => m.id === id)))) {
        return sendPage(
          reply,
          locale,
          400,
          consentPage(locale, {
            handle: field(request.body.handle),
            clientName,
            livemode: pending.livemode,
            canWrite: scopeAllowsWrite(pending.scope),
            email: user.email,
            allowAll: user.merchantIds === null,
            merchants: grantable,
            error: CONSENT_TEXTS[locale].chooseMerchant,
          }),
        );
      }
      const code = await approveAuthorization(em(), pending.id, all ? null : chosen);
      return redirectWith(reply, issuer, pending, { code });
    },
  );
};
