import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '@cfdi/config';
import { ForbiddenError, platformGauges, UnauthorizedError } from '@cfdi/services';

const ReadySchema = Type.Object({ status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]), db: Type.Boolean(), redis: Type.Boolean() });

/** Liveness and readiness: /health touches nothing, /ready pings PostgreSQL and Redis with a short timeout. */
export const metaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: { tags: ['meta'], operationId: 'retrieveHealth', summary: 'Check liveness', description: 'Liveness; touches no dependency.', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/ready', {
    schema: { tags: ['meta'], operationId: 'retrieveReadiness', summary: 'Check readiness', description: 'Readiness of PostgreSQL and Redis.', security: [], response: { 200: ReadySchema, 503: ReadySchema } },
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

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may scrape /metrics: with METRICS_TOKEN set, only `Authorization: Bearer <token>` (compared in constant
 * time); without it, anyone in development and test, nobody in production (the API port is public there, and the
 * gauges describe the platform's load and backlog).
 */
function assertMetricsAccess(config: Readonly<Config>, authorization: string | undefined): void {
  if (!config.metricsToken) {
    if (config.nodeEnv === 'production') throw new ForbiddenError('/metrics is disabled in production until METRICS_TOKEN is set.');
    return;
  }
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!presented || !timingSafeEqual(digest(presented), digest(config.metricsToken))) {
    throw new UnauthorizedError('/metrics needs `Authorization: Bearer <METRICS_TOKEN>`.');
  }
}

/**
 * Prometheus text exposition of platform-wide gauges (documents by status, reconciliations waiting, the last ledger
 * audit). No tenant data; behind METRICS_TOKEN (see assertMetricsAccess).
 */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    assertMetricsAccess(app.deps.config, request.headers.authorization);
    const gauges = await platformGauges(app.deps.orm.em.fork());
    const lines = [
      '# HELP cfdi_documents Documents by type and status.',
      '# TYPE cfdi_documents gauge',
      ...gauges.documentsByStatus.map((g) => `cfdi_documents{type="${g.type}",status="${g.status}"} ${g.count}`),
      '# HELP cfdi_reconciliations_waiting Documents whose PAC outcome was ambiguous and awaits a decision.',
      '# TYPE cfdi_reconciliations_waiting gauge',
      `cfdi_reconciliations_waiting ${gauges.awaitingReconciliation}`,
      '# HELP cfdi_work_without_workflow Accepted stamps and cancellations whose workflow has not started for over a minute.',
      '# TYPE cfdi_work_without_workflow gauge',
      ...Object.entries(gauges.withoutWorkflow).map(([work, count]) => `cfdi_work_without_workflow{work="${work}"} ${count}`),
    ];
    if (gauges.lastAudit) {
      lines.push(
        '# HELP cfdi_ledger_audit_violations Money invariant violations found by the last ledger audit.',
        '# TYPE cfdi_ledger_audit_violations gauge',
        `cfdi_ledger_audit_violations ${gauges.lastAudit.violations}`,
        '# HELP cfdi_ledger_audit_age_seconds Seconds since the last ledger audit.',
        '# TYPE cfdi_ledger_audit_age_seconds gauge',
        `cfdi_ledger_audit_age_seconds ${gauges.lastAudit.ageSeconds}`,
      );
    }
    return reply.type('text/plain; version=0.0.4').send(`${lines.join('\n')}\n`);
  });
};
