import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { testConfig } from '@cfdi/testkit';
import { openapiDocument } from '../src/openapi-document';

// The API compiles each response serializer on first use (plugins/lazy-serializers.ts), so a schema that
// fast-json-stringify cannot compile would only show on that response. Here every one is compiled up front, as
// Fastify's default does: building the app fails on the first that does not compile.
const compiled: string[] = [];
jest.mock('../src/plugins/lazy-serializers', () => ({
  lazySerializerFactory: (externalSchemas: unknown, options: object) => {
    const compile = SerializerSelector()(externalSchemas, options);
    return (route: Parameters<typeof compile>[0] & { contentType?: string }) => {
      compiled.push(`${route.method} ${route.url} ${route.httpStatus} ${route.contentType ?? ''}`);
      return compile(route);
    };
  },
}));

it('compiles the serializer of every response schema of every route', async () => {
  await openapiDocument(testConfig());
  expect(compiled.length).toBeGreaterThan(300);
  expect(compiled).toContain('POST /v1/invoices 201 ');
}, 60_000);
