import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const ReadySchema = Type.Object({ status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]), db: Type.Boolean(), redis: Type.Boolean() });

/** Liveness and readiness: /health touches nothing, /ready pings PostgreSQL and Redis with a short timeout. */
export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: { tags: ['meta'], description: 'Liveness; touches no dependency.', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/ready', {
    schema: { tags: ['meta'], description: 'Readiness of PostgreSQL and Redis.', response: { 200: ReadySchema, 503: ReadySchema } },
  }, async (_request, reply) => {
    const { orm, redis } = app.deps;
    const [db, cache] = await Promise.all([
      withTimeout(orm.em.fork().execute('select 1').then(() => true), 2000),
      withTimeout(redis.ping().then((pong) => pong === 'PONG'), 2000),
    ]);
    const ready = db && cache;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'degraded', db, redis: cache });
  });
};

async function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([check.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
