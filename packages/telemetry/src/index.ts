export { tracingSettings, OTLP_PROTOCOLS, type OtlpProtocol, type TracingSettings } from './settings';
export { startTracing, stopTracing, activeTracing, type Tracing } from './tracing';
export { currentTraceId, currentTraceparent, traceLogFields, nameServerSpan } from './context';
export { temporalClientInterceptors } from './temporal-client';
