import type { IncomingMessage } from 'node:http';
import type { Resource } from '@opentelemetry/resources';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracingSettings, type OtlpProtocol } from './settings';

/** The running SDK of this process: what Temporal's workflow span sink needs to export through the same pipeline. */
export interface Tracing {
  processor: SpanProcessor;
  resource: Resource;
}

let running: (Tracing & { shutdown(): Promise<void> }) | null = null;

/** Probes and scrapes: one span each every few seconds, and never part of a request worth following. */
const UNTRACED_PATHS = new Set(['/health', '/ready', '/live', '/metrics']);

/**
 * Starts OpenTelemetry tracing when the `OTEL_*` variables ask for it (see `tracingSettings`), once per process, and
 * before the modules it instruments are loaded: each entry point imports its `tracing.ts` first. Off, nothing of the
 * SDK is even required. `serviceName` is the default of `OTEL_SERVICE_NAME`.
 */
export function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env) {
  if (running) return running;
  const settings = tracingSettings(env);
  if (!settings) return null;
  const { Resource, envDetectorSync } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the process's default name.
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': serviceName }))
    .merge(envDetectorSync.detect());
  // Batch size, queue and delay come from OTEL_BSP_*.
  const processor = new BatchSpanProcessor(otlpExporter(settings.protocol));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // AsyncLocalStorage context, W3C trace context and baggage (or OTEL_PROPAGATORS), the sampler from OTEL_TRACES_SAMPLER.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      // Statements only (with their ? placeholders' $n), never the values bound to them: XML, RFCs, keys. Only
      // inside a trace: pool housekeeping and background polls make no root spans.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command's name only: keys carry account and key ids.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  running = { processor, resource, shutdown: () => provider.shutdown() };
  return running;
}

function otlpExporter(protocol: OtlpProtocol): SpanExporter {
  // Each reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself.
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } =
      require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  if (protocol === 'grpc') {
    const { OTLPTraceExporter } =
      require('@opentelemetry/exporter-trace-otlp-grpc') as typeof import('@opentelemetry/exporter-trace-otlp-grpc');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-proto') as typeof import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

/** The running SDK, or null when this process does not trace. */
export function activeTracing(): Tracing | null {
  return running;
}

/** Exports the spans still buffered and stops the SDK: called on shutdown, so the last requests' spans are not lost. */
export async function stopTracing(): Promise<void> {
  const current = running;
  running = null;
  await current?.shutdown();
}
