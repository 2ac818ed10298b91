import { Type, type TSchema } from '@sinclair/typebox';
import { PROBLEM_CODES, type ProblemCodeEntry } from '@cfdi/services';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({
      description:
        'URL of the page explaining the code ({docs_url}/errors/<code>): what it means and how to fix it',
    }),
    title: Type.String({
      description: 'Short summary of the kind of problem, the same for every occurrence',
    }),
    status: Type.Integer({ description: 'The HTTP status code' }),
    code: Type.String({ description: 'Stable machine-readable code: branch on this, never on the texts' }),
    detail: Type.String({ description: 'What went wrong in this request, for a person to read' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({
            description: 'JSON pointer of the field in the request, e.g. /items/0/unitPrice',
          }),
          message: Type.String({ description: 'What is wrong with the field' }),
        }),
        { description: 'One entry per invalid field (validation errors)' },
      ),
    ),
    subcode: Type.Optional(Type.String({ description: 'A finer reason within the code, when there is one' })),
    satCode: Type.Optional(
      Type.String({
        description: 'The SAT or PAC error code behind the problem (e.g. CFDI40147), when there is one',
      }),
    ),
    traceId: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{32}$',
        description:
          'The W3C trace id of this request, when the platform records traces: quote it to support.',
      }),
    ),
  },
  { $id: 'Problem', description: 'RFC 7807 problem details (application/problem+json)' },
);

/** `{object: "list", data, has_more}` */
export const ListSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item, { description: 'The page of objects, newest first' }),
    has_more: Type.Boolean({
      description:
        'Whether more objects follow: pass the last id of data as starting_after for the next page',
    }),
  });

export const PaginationQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  starting_after: Type.Optional(Type.String({ minLength: 1 })),
});

export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1 }) });

/** The `code` values each error status carries (the registry in @cfdi/services), published in the OpenAPI document. */
const PROBLEM_CODES_BY_STATUS: Record<number, string[]> = {};
for (const [code, entry] of Object.entries(PROBLEM_CODES) as [string, ProblemCodeEntry][])
  if (!entry.consoleOnly) (PROBLEM_CODES_BY_STATUS[entry.status] ??= []).push(code);

/**
 * An `application/problem+json` response whose `code` is one of its status's codes. Problems are sent with their own
 * serializer (plugins/problem.ts), so this schema only documents them.
 */
export const problemResponse = (status: number) => {
  const codes = PROBLEM_CODES_BY_STATUS[status];
  if (!codes) throw new Error(`no problem codes listed for HTTP ${status}`);
  return {
    description: `Problem: ${codes.map((code) => `\`${code}\``).join(', ')}`,
    content: {
      'application/problem+json': {
        schema: Type.Intersect([
          Type.Ref(ProblemSchema),
          Type.Object({ code: StringEnum(codes, { description: `The codes a ${status} carries here` }) }),
        ]),
      },
    },
  };
};

/**
 * Problem responses every authenticated route may return, plus the route's own: 400 too, since text no field may
 * hold (control characters, non-characters, lone surrogates; plugins/text-check.ts) is refused in any path parameter,
 * query or header.
 */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries([400, 401, 429, ...statuses].map((s) => [s, problemResponse(s)]));

/** A file's bytes in an answer (a PDF, an XML): documented as binary, sent as the Buffer it is. */
export const Binary = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

/** A union of string literals that keeps its literal types (a mapped `Type.Literal` would widen to string). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
