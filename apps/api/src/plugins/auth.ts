import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateKey, consumeRateLimit, RateLimitedError, UnauthorizedError, type RateLimitDecision, type Scope } from '@cfdi/services';

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope;
  }
}

/**
 * Authenticates `Authorization: Bearer sk_…` and applies the per-account rate limit, for every route of the
 * plugin context it is installed in (all of /v1). Rate-limit headers go on every authenticated response.
 * While Redis is unreachable the limit is not enforced (nothing the API guarantees depends on it: money, documents
 * and idempotency live in PostgreSQL), with a warning at most every 30 s and /ready reporting `degraded`.
 */
export function installAuth(app: FastifyInstance): void {
  app.decorateRequest('scope', null as unknown as Scope);
  let lastWarning = 0;
  const unlimited = (limit: number, error: unknown): RateLimitDecision => {
    if (Date.now() - lastWarning > 30_000) {
      lastWarning = Date.now();
      app.log.warn({ err: error }, 'rate limit not enforced: Redis is unreachable');
    }
    return { allowed: true, limit, remaining: limit, resetSeconds: 60 };
  };
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const header = request.headers.authorization;
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match) throw new UnauthorizedError(header ? 'Malformed Authorization header; expected `Bearer <API key>`.' : undefined);
    const { orm, redis, config } = app.deps;
    const auth = await authenticateKey(orm.em.fork(), match[1]!);
    if (!auth) throw new UnauthorizedError('Invalid, revoked or unknown API key.');
    request.scope = { accountId: auth.accountId, livemode: auth.livemode, keyId: auth.keyId, merchantIds: auth.merchantIds };

    const limit = auth.rateLimitPerMinute ?? config.rateLimitPerMinute;
    const decision = await consumeRateLimit(redis, auth.accountId, limit).catch((error: unknown) => unlimited(limit, error));
    const headers = { 'x-ratelimit-limit': String(decision.limit), 'x-ratelimit-remaining': String(decision.remaining) };
    reply.headers(headers);
    if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds, headers);
  });
}
