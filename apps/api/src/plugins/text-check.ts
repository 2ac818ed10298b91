import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  hasUnsupportedCharacter,
  UNSUPPORTED_CHARACTER_MESSAGE,
  ValidationError,
  type FieldError,
} from '@cfdi/services';

// Headers arrive decoded as Latin-1 (a UTF-8 byte 0x80–0x9F reads as a C1 control), so only what PostgreSQL cannot
// store is refused there: NUL and lone UTF-16 surrogates.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const HEADER_MESSAGE = 'must not contain a NUL character (\\u0000) or an unpaired UTF-16 surrogate';
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

interface Policy {
  refuses: (text: string) => boolean;
  message: string;
}
const FIELDS: Policy = { refuses: hasUnsupportedCharacter, message: UNSUPPORTED_CHARACTER_MESSAGE };
const HEADERS: Policy = { refuses: (text) => UNSTORABLE.test(text), message: HEADER_MESSAGE };

/**
 * Every string (object keys included) in a parsed value that the policy refuses, as JSON pointers. Walks with an
 * explicit stack: a body nested 100,000 levels deep is valid JSON and must not overflow the call stack. Raw bodies
 * (a Buffer, e.g. Stripe's signed webhook) are not text and are skipped.
 */
function findRefused(root: unknown, rootPath: string, policy: Policy, found: FieldError[]): void {
  const pending: [unknown, string][] = [[root, rootPath]];
  while (pending.length && found.length < 20) {
    const [value, path] = pending.pop()!;
    if (typeof value === 'string') {
      if (policy.refuses(value)) found.push({ path: path || '/', message: policy.message });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], `${path}/${i}`]);
    } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const [key, item] of Object.entries(value).reverse()) {
        const at = `${path}/${pointer(key)}`;
        if (policy.refuses(key)) found.push({ path: at, message: `(the field name) ${policy.message}` });
        else pending.push([item, at]);
      }
    }
  }
}

/**
 * One check for the whole API, before schema validation and any handler: text no field may hold (control characters
 * other than tab and line breaks, Unicode non-characters, lone surrogates; see @cfdi/cfdi validation/characters.ts)
 * is a 400 with its path wherever it comes from (body and query as JSON pointers like schema errors, path parameters
 * under `/params`), instead of a document accepted and then never stampable, or a 500 from the database. Headers
 * only get the storability check (`/headers/<name>`).
 */
export function installTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const found: FieldError[] = [];
    findRefused(request.body, '', FIELDS, found);
    findRefused(request.query, '', FIELDS, found);
    findRefused(request.params, '/params', FIELDS, found);
    findRefused(request.headers, '/headers', HEADERS, found);
    if (found.length)
      throw new ValidationError(
        `The request is invalid: ${found.map((e) => `${e.path} ${e.message}`).join('; ')}`,
        found,
      );
  });
}
