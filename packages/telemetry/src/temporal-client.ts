import type { ClientInterceptors } from '@temporalio/client';
import { activeTracing } from './tracing';

/**
 * The Temporal client's interceptors: starting a workflow, an update-with-start, a signal opens a span and carries
 * its context to the workflow in the call's headers. None when this process does not trace.
 */
export function temporalClientInterceptors(): ClientInterceptors | undefined {
  if (!activeTracing()) return undefined;
  const { OpenTelemetryWorkflowClientInterceptor } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
