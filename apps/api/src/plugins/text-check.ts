import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError, type FieldError } from '@cfdi/services';

// NUL and lone UTF-16 surrogates: PostgreSQL refuses them in text and jsonb, and no CFDI field can carry them.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MESSAGE = 'must not contain a NUL character (\\u0000) or an unpaired UTF-16 surrogate';
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Every string (object keys included) in a parsed JSON value that holds unstorable text, as JSON pointers. Walks with
 * an explicit stack: a body nested 100,000 levels deep is valid JSON and must not overflow the call stack.
 */
function findUnstorable(root: unknown, rootPath: string, found: FieldError[]): void {
  const pending: [unknown, string][] = [[root, rootPath]];
  while (pending.length && found.length < 20) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) found.push({ path: path || '/', message: MESSAGE });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], `${path}/${i}`]);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value).reverse()) {
        const at = `${path}/${pointer(key)}`;
        if (UNSTORABLE.test(key)) found.push({ path: at, message: `(the field name) ${MESSAGE}` });
        else pending.push([item, at]);
      }
    }
  }
}

/**
 * One check for the whole API, before schema validation and any handler: text PostgreSQL cannot store is a 400
 * with its path wherever it comes from (body and query as JSON pointers like schema errors, path parameters under
 * `/params`, headers under `/headers`), instead of a 500 from the database deep inside a handler.
 */
export function installTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const found: FieldError[] = [];
    findUnstorable(request.body, '', found);
    findUnstorable(request.query, '', found);
    findUnstorable(request.params, '/params', found);
    findUnstorable(request.headers, '/headers', found);
    if (found.length) throw new ValidationError(`The request is invalid: ${found.map((e) => `${e.path} ${e.message}`).join('; ')}`, found);
  });
}
