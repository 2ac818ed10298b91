import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateKey, consumeRateLimit, RateLimitedError, UnauthorizedError, type Scope } from '@cfdi/services';

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope;
  }
}

/**
 * Authenticates `Authorization: Bearer sk_…` and applies the per-account rate limit, for every route of the
 * plugin context it is installed in (all of /v1). Rate-limit headers go on every authenticated response.
 */
export function installAuth(app: FastifyInstance): void {
  app.decorateRequest('scope', null as unknown as Scope);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) throw new UnauthorizedError(header ? 'Malformed Authorization header; expected `Bearer <API key>`.' : undefined);
    const { orm, redis, config } = app.deps;
    const auth = await authenticateKey(orm.em.fork(), match[1]!);
    if (!auth) throw new UnauthorizedError('Invalid, revoked or unknown API key.');
    request.scope = { accountId: auth.accountId, livemode: auth.livemode, keyId: auth.keyId, merchantIds: auth.merchantIds };

    const decision = await consumeRateLimit(redis, auth.accountId, auth.rateLimitPerMinute ?? config.rateLimitPerMinute);
    const headers = { 'x-ratelimit-limit': String(decision.limit), 'x-ratelimit-remaining': String(decision.remaining) };
    reply.headers(headers);
    if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds, headers);
  });
}
