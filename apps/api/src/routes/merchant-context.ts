import type { FastifyInstance } from 'fastify';
import type { CsdContext, LogoContext } from '@cfdi/services';
import type { AppDeps } from '../deps';

/** What the merchant services need, with a fresh EntityManager per call (REST request or MCP tool call). */
export function merchantServices(deps: AppDeps): LogoContext & CsdContext {
  const { orm, now, fileUrls, storage, pac, config } = deps;
  return { em: orm.em.fork(), now, fileUrls, storage, pac, masterKey: config.masterKey };
}

export const merchantContext = (app: FastifyInstance) => merchantServices(app.deps);
