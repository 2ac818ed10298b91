import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authenticateKey,
  consumeRateLimit,
  RateLimitedError,
  UnauthorizedError,
  type RateLimitDecision,
  type Scope,
} from '@cfdi/services';

declare module 'fastify' {
  interface FastifyRequest {
    scope: Scope;
  }
}

let lastWarning = 0;

/**
 * Counts one request against the account's per-minute limit. While Redis is unreachable the limit is not enforced
 * (nothing the API guarantees depends on it: money, documents and idempotency live in PostgreSQL), with a warning at
 * most every 30 s and /ready reporting `degraded`. The answer carries the rate-limit headers for the response and,
 * when over the limit, the 429 to answer with.
 */
export async function countRequest(app: FastifyInstance, accountId: string, accountLimit: number | null) {
  const limit = accountLimit ?? app.deps.config.rateLimitPerMinute;
  const decision = await consumeRateLimit(app.deps.redis, accountId, limit).catch(
    (error: unknown): RateLimitDecision => {
      if (Date.now() - lastWarning > 30_000) {
        lastWarning = Date.now();
        app.log.warn({ err: error }, 'rate limit not enforced: Redis is unreachable');
      }
      return { allowed: true, limit, remaining: limit, resetSeconds: 60 };
    },
  );
  const headers = {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
  };
  return { headers, refusal: decision.allowed ? null : new RateLimitedError(decision.resetSeconds, headers) };
}

/** The bearer token of `Authorization: Bearer <token>`; a 401 when it is missing or malformed. */
export function bearerToken(request: FastifyRequest, expected = 'API key'): string {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match)
    throw new UnauthorizedError(
      header ? `Malformed Authorization header; expected \`Bearer <${expected}>\`.` : undefined,
    );
  return match[1]!;
}

/**
 * Authenticates `Authorization: Bearer sk_…` and applies the per-account rate limit, for every route of the
 * plugin context it is installed in (all of /v1). Rate-limit headers go on every authenticated response.
 */
export function installAuth(app: FastifyInstance): void {
  app.decorateRequest('scope', null as unknown as Scope);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const auth = await authenticateKey(app.deps.orm.em.fork(), bearerToken(request));
    if (!auth) throw new UnauthorizedError('Invalid, revoked or unknown API key.');
    request.scope = {
      accountId: auth.accountId,
      livemode: auth.livemode,
      keyId: auth.keyId,
      merchantIds: auth.merchantIds,
    };
    const { headers, refusal } = await countRequest(app, auth.accountId, auth.rateLimitPerMinute);
    reply.headers(headers);
    if (refusal) throw refusal;
  });
}
