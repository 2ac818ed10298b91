import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import { activeTracing } from './tracing';

// Only the worker imports this module (`@cfdi/telemetry/worker`): the console's bundler never sees its require.resolve.

/**
 * The modules a workflow bundle must include for workflows to continue the caller's trace (their spans, and the
 * context handed to their activities). They are bundled in, so a worker that traces runs a bundle of its own.
 */
export function workflowTracingModules(): string[] {
  return [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];
}

export interface WorkerTracing {
  /** Activities (local ones too) run in a span continuing the workflow's; their log lines carry its ids. */
  interceptors: WorkerInterceptors;
  /** Workflows cannot do I/O: their spans leave the sandbox through this sink, into the process's span pipeline. */
  sinks: InjectedSinks<any>;
}

/** What a worker adds to its options to trace, or null when this process does not trace. */
export function workerTracing(): WorkerTracing | null {
  const tracing = activeTracing();
  if (!tracing) return null;
  const {
    OpenTelemetryActivityInboundInterceptor,
    OpenTelemetryActivityOutboundInterceptor,
    makeWorkflowExporter,
  } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}
