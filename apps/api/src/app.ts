import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { proxyTrust } from '@cfdi/config';
import { activeTracing, traceLogFields } from '@cfdi/telemetry';
import { ValidationError } from '@cfdi/services';
import type { AppDeps } from './deps';
import { installValidators } from './plugins/validation';
import { lazySerializerFactory } from './plugins/lazy-serializers';
import { clientProblems, frameworkProblems, installProblemHandlers } from './plugins/problem';
import { installTextCheck } from './plugins/text-check';
import { installQueryParamCheck } from './plugins/query-params';
import { installAuth } from './plugins/auth';
import { installTracing } from './plugins/tracing';
import { ProblemSchema } from './schemas/common';
import { swaggerOptions } from './openapi';
import { metaRoutes, metricsRoutes } from './routes/meta';
import { billingRoutes } from './routes/billing';
import { catalogRoutes } from './routes/catalogs';
import { merchantRoutes } from './routes/merchants';
import { merchantCsdRoutes } from './routes/merchant-csd';
import { merchantLogoRoutes } from './routes/merchant-logo';
import { fileRoutes } from './routes/files';
import { stripeWebhookRoutes } from './routes/stripe-webhook';
import { documentRoutes } from './kinds/routes';
import { recordRoutes } from './records/routes';
import { receiptInvoiceRoutes } from './records/receipt-invoice-routes';
import { receiptTicketRoutes } from './records/receipt-ticket-routes';
import { webhookEndpointRoutes } from './routes/webhook-endpoints';
import { eventRoutes } from './routes/events';
import { nominaBatchRoutes } from './routes/nomina-batch';
import { mcpRoutes } from './mcp/routes';
import { oauthMetadataRoutes } from './oauth/metadata';
import { oauthTokenRoutes } from './oauth/token-routes';
import { oauthConsentRoutes } from './oauth/consent-routes';
import { referenceRoutes } from './reference/routes';

export interface BuildAppOptions {
  logger?: boolean | object;
}

/** No request of this API nests deeper than a few levels; 100,000 levels held the event loop for half a second. */
const MAX_JSON_DEPTH = 32;

/** One linear pass over the text (strings skipped), before JSON.parse and every walk over the parsed value. */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Many HTTP clients send `Content-Type: application/json` on every request, bodiless DELETEs and POSTs included: an
 * empty body is no body (an endpoint that needs one still answers 400 for it); anything else goes to Fastify's own
 * JSON parser, prototype-poisoning protection included. The bytes must be UTF-8 (RFC 8259): a body with invalid
 * sequences is a 400, never silently repaired with U+FFFD and stamped.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      return done(
        new ValidationError('The request body is not valid UTF-8.', [
          { path: '/', message: 'is not valid UTF-8 (RFC 8259: JSON text is UTF-8)' },
        ]),
        undefined,
      );
    }
    if (text === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        new ValidationError(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`, [
          { path: '/', message: `is nested deeper than ${MAX_JSON_DEPTH} levels` },
        ]),
        undefined,
      );
    }
    return parseJson(request, text, done);
  });
}

/** The API without a listening socket: server.ts listens, tests use it directly. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Traced, every log line names the trace and span it was written in.
    logger: options.logger ?? {
      level: deps.config.logLevel,
      ...(activeTracing() ? { mixin: traceLogFields } : {}),
    },
    bodyLimit: deps.config.api.bodyLimitBytes,
    // The caller's X-Request-Id, or one unique across processes and restarts (Fastify's default is a counter).
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // request.ip (sign-in throttle, logs) is the TCP peer unless it is one of TRUSTED_PROXIES.
    trustProxy: deps.config.trustedProxies.length ? proxyTrust(deps.config.trustedProxies) : false,
    frameworkErrors: frameworkProblems(deps.config.api.docsUrl),
    clientErrorHandler: clientProblems(deps.config.api.docsUrl),
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  app.decorate('lifecycle', { draining: false });
  installTracing(app);
  acceptEmptyJsonBodies(app);
  installValidators(app);
  installProblemHandlers(app, deps.config.api.docsUrl);
  installTextCheck(app);
  installQueryParamCheck(app);
  app.addSchema(ProblemSchema);
  // Times in responses are always UTC with milliseconds; the request id helps support find a call in the logs.
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.http.observe({
      method: request.method,
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });

  await app.register(swagger, swaggerOptions);

  await app.register(metaRoutes);
  await app.register(metricsRoutes);
  await app.register(fileRoutes);
  await app.register(stripeWebhookRoutes);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(mcpRoutes);
  await app.register(oauthMetadataRoutes);
  await app.register(oauthTokenRoutes);
  await app.register(oauthConsentRoutes);
  await app.register(referenceRoutes);
  await app.register(
    async (v1) => {
      installAuth(v1);
      await v1.register(billingRoutes);
      await v1.register(catalogRoutes);
      await v1.register(merchantRoutes);
      await v1.register(merchantCsdRoutes);
      await v1.register(merchantLogoRoutes);
      await v1.register(documentRoutes);
      await v1.register(recordRoutes);
      await v1.register(receiptInvoiceRoutes);
      await v1.register(receiptTicketRoutes);
      await v1.register(nominaBatchRoutes);
      await v1.register(webhookEndpointRoutes);
      await v1.register(eventRoutes);
    },
    { prefix: '/v1' },
  );
  return app;
}
