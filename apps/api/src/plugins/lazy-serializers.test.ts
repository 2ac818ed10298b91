import Fastify from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { lazySerializerFactory } from './lazy-serializers';

// Counts the serializers fast-json-stringify builds, Fastify's compiler calling the real one.
jest.mock('fast-json-stringify', () => {
  const actual = jest.requireActual('fast-json-stringify');
  return Object.assign(jest.fn(actual), actual);
});
const compilations = fastJsonStringify as unknown as jest.Mock;

async function appWithTwoResponseSchemas() {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } } });
  app.addSchema({ $id: 'Shared', type: 'object', properties: { id: { type: 'string' } } });
  const response = {
    200: { type: 'object', properties: { name: { type: 'string' }, shared: { $ref: 'Shared#' } } },
    404: { type: 'object', properties: { code: { type: 'string' } } },
  };
  app.get('/thing', { schema: { response } }, async () => ({
    name: 'a',
    secret: 'not in the schema',
    shared: { id: 'x', other: 1 },
  }));
  await app.ready();
  return app;
}

describe('lazySerializerFactory', () => {
  let app: Awaited<ReturnType<typeof appWithTwoResponseSchemas>> | undefined;
  beforeEach(() => compilations.mockClear());
  afterEach(() => app?.close());

  it('compiles no response schema when the app starts', async () => {
    app = await appWithTwoResponseSchemas();
    expect(compilations).not.toHaveBeenCalled();
  });

  it('compiles a schema on its first response, once, and serializes by it (shared $refs included)', async () => {
    app = await appWithTwoResponseSchemas();
    const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/thing`;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('{"name":"a","shared":{"id":"x"}}');
    }
    expect(compilations).toHaveBeenCalledTimes(1);
  });
});
