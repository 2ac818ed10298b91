import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { metricsAccess } from '@cfdi/metrics';
import { ForbiddenError, platformGauges, UnauthorizedError } from '@cfdi/services';
import { named } from '../openapi-components';
import { within } from '../within';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by server.ts on SIGTERM: /ready answers 503 from then on while in-flight requests finish. */
    lifecycle: { draining: boolean };
  }
}

const ReadySchema = named(
  'Readiness',
  Type.Object({
    status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('draining')], {
      description: 'ready, degraded (Redis down: rate limits not enforced) or draining (shutting down)',
    }),
    db: Type.Boolean(),
    redis: Type.Boolean(),
  }),
);

const LivenessSchema = named(
  'Liveness',
  Type.Object({ status: Type.Literal('ok', { description: 'Always ok: the process answers' }) }),
);

/**
 * Liveness and readiness: /live (and its older name /health) touches nothing; /ready pings PostgreSQL and Redis
 * with a short timeout, and answers 503 `draining` from the moment the process got SIGTERM.
 */
export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const [url, operationId] of [
    ['/live', 'retrieveLiveness'],
    ['/health', 'retrieveHealth'],
  ] as const) {
    app.get(
      url,
      {
        schema: {
          tags: ['meta'],
          operationId,
          summary: url === '/live' ? 'Check liveness' : 'Check liveness (older name of /live)',
          description: 'Liveness; touches no dependency.',
          security: [],
          response: { 200: LivenessSchema },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
  }

  app.get(
    '/ready',
    {
      schema: {
        tags: ['meta'],
        operationId: 'retrieveReadiness',
        summary: 'Check readiness',
        description:
          'Readiness of PostgreSQL and Redis; 503 `draining` once the process is shutting down (its in-flight requests still finish).',
        security: [],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const { orm, redis } = app.deps;
      const [db, cache] = await Promise.all([
        within(
          orm.em
            .fork()
            .execute('select 1')
            .then(
              () => true,
              () => false,
            ),
          2000,
          false,
        ),
        within(
          redis.ping().then(
            (pong) => pong === 'PONG',
            () => false,
          ),
          2000,
          false,
        ),
      ]);
      const { draining } = app.lifecycle;
      const ready = db && cache && !draining;
      const status = draining ? 'draining' : ready ? 'ready' : 'degraded';
      return reply.code(ready ? 200 : 503).send({ status, db, redis: cache });
    },
  );
};

/**
 * Prometheus text exposition: the HTTP RED histogram, the PAC latency histogram, Node's runtime and process metrics,
 * and the platform-wide gauges read from PostgreSQL (documents by status, reconciliations waiting, the webhook
 * outbox, failed files, the last ledger audit). No tenant data; behind METRICS_TOKEN (see metricsAccess).
 */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const access = metricsAccess(app.deps.config, request.headers.authorization);
    if (access === 'forbidden')
      throw new ForbiddenError('/metrics is disabled in production until METRICS_TOKEN is set.');
    if (access === 'unauthorized')
      throw new UnauthorizedError('/metrics needs `Authorization: Bearer <METRICS_TOKEN>`.');
    const { registry, setPlatform } = app.deps.metrics;
    setPlatform(await platformGauges(app.deps.orm.em.fork()));
    return reply.type(registry.contentType).send(await registry.metrics());
  });
};
