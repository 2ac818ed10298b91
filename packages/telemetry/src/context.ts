import { activeTracing } from './tracing';

interface ActiveIds {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

/** The ids of the span active here (the request's, the activity's), or null when this process does not trace. */
function activeIds(): ActiveIds | null {
  if (!activeTracing()) return null;
  const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const context = trace.getActiveSpan()?.spanContext();
  if (!context) return null;
  return { traceId: context.traceId, spanId: context.spanId, sampled: (context.traceFlags & 1) === 1 };
}

/** The trace id of the work in progress, for problem+json answers (`traceId`) and anything else that quotes it. */
export function currentTraceId(): string | undefined {
  return activeIds()?.traceId;
}

/** The W3C `traceparent` of the active span, for a response header: the caller's trace, and this hop's span in it. */
export function currentTraceparent(): string | undefined {
  const ids = activeIds();
  return ids ? `00-${ids.traceId}-${ids.spanId}-${ids.sampled ? '01' : '00'}` : undefined;
}

/** A pino `mixin`: every log line written inside a traced request or job carries its trace and span ids. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const ids = activeIds();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** Names the active server span after the route that matched (`POST /v1/invoices`) rather than the bare method. */
export function nameServerSpan(method: string, route: string | undefined): void {
  if (!route || !activeTracing()) return;
  const { trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const span = trace.getActiveSpan();
  span?.setAttribute('http.route', route);
  span?.updateName(`${method} ${route}`);
}
