/** The OTLP encodings the standard `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` names, each with its own exporter. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface TracingSettings {
  protocol: OtlpProtocol;
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined) => Boolean(value?.trim());

/**
 * Whether this process traces, from the standard variables only: on when an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none`. Off means no SDK is loaded at all. The endpoint, headers, timeout, batch sizes and
 * sampler are read by the SDK itself from their own `OTEL_*` variables.
 */
export function tracingSettings(env: Env = process.env): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return null;
  if (exporter && exporter !== 'otlp')
    throw new Error(`OTEL_TRACES_EXPORTER="${exporter}": only otlp (or none) is supported`);
  if (!set(env.OTEL_EXPORTER_OTLP_ENDPOINT) && !set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) return null;
  // The specification's default encoding.
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ||
    'http/protobuf'
  ).toLowerCase();
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL="${protocol}" must be one of ${OTLP_PROTOCOLS.join(', ')}`);
  return { protocol: protocol as OtlpProtocol };
}
