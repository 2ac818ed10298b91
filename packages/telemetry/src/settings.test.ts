import { tracingSettings } from './settings';

const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

it('is off without an OTLP endpoint, whatever else is set', () => {
  expect(tracingSettings({})).toBeNull();
  expect(tracingSettings({ OTEL_SERVICE_NAME: 'api', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBeNull();
  expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
});

it('is on with either endpoint, in the specification’s default encoding unless told', () => {
  expect(tracingSettings(endpoint)).toEqual({ protocol: 'http/protobuf' });
  expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://j:4318/v1/traces' })).toEqual({
    protocol: 'http/protobuf',
  });
  expect(tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
    protocol: 'http/json',
  });
  // The traces-specific variable wins over the general one.
  expect(
    tracingSettings({
      ...endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc',
    }),
  ).toEqual({ protocol: 'grpc' });
});

it('OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn it off', () => {
  expect(tracingSettings({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBeNull();
  expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  expect(tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp' })).toEqual({
    protocol: 'http/protobuf',
  });
});

it('refuses what it cannot honour rather than tracing nowhere', () => {
  expect(() => tracingSettings({ ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/only otlp/);
  expect(() => tracingSettings({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'thrift' })).toThrow(
    /must be one of http\/protobuf, http\/json, grpc/,
  );
});
