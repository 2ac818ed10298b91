import type { FastifyInstance } from 'fastify';
import { activeTracing, currentTraceparent, nameServerSpan } from '@cfdi/telemetry';

/**
 * When the process traces (OTEL_* set): each request's server span is named after its route, and the answer carries
 * a W3C `traceparent` naming the request's trace (the caller's, when it sent one) and this server's span in it.
 */
export function installTracing(app: FastifyInstance): void {
  if (!activeTracing()) return;
  app.addHook('onRequest', async (request) => nameServerSpan(request.method, request.routeOptions.url));
  app.addHook('onSend', async (_request, reply) => {
    reply.headers(traceHeaders());
  });
}

/** `traceparent`, for a response sent past Fastify's hooks (the MCP transport writes its own). */
export function traceHeaders(): Record<string, string> {
  const traceparent = currentTraceparent();
  return traceparent ? { traceparent } : {};
}
