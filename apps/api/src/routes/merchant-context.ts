import type { FastifyInstance } from 'fastify';
import type { CsdContext, LogoContext } from '@cfdi/services';

/** What the merchant services need from the app, with a fresh EntityManager per request. */
export function merchantContext(app: FastifyInstance): LogoContext & CsdContext {
  const { orm, now, fileUrls, storage, pac, config } = app.deps;
  return { em: orm.em.fork(), now, fileUrls, storage, pac, masterKey: config.masterKey };
}
