import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

const compilerFor = SerializerSelector();

/**
 * Fastify's own serializer factory, except that each response schema is compiled on its first use rather than when
 * the app starts. Eager compilation built ~450 fast-json-stringify functions, ~4 MB of generated source held in the
 * API's heap for its life, most of them never called: problem responses are sent already serialized
 * (plugins/problem.ts), and most routes never answer most of their statuses.
 */
export const lazySerializerFactory: SerializerFactory = (externalSchemas, options) => {
  const compile = compilerFor(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => (serialize ??= compile(route))(doc);
  };
};
