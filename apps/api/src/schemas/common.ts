import { Type, type TSchema } from '@sinclair/typebox';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: '{docs_url}/errors/<code>' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.String(),
    detail: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    subcode: Type.Optional(Type.String()),
    satCode: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 7807 problem details (application/problem+json)' },
);

/** `{object: "list", data, has_more}` */
export const ListSchema = <T extends TSchema>(item: T) =>
  Type.Object({ object: Type.Literal('list'), data: Type.Array(item), has_more: Type.Boolean() });

export const PaginationQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  starting_after: Type.Optional(Type.String({ minLength: 1 })),
});

export const IdParamsSchema = Type.Object({ id: Type.String({ minLength: 1 }) });

/** The `code` values each error status carries (api-spec.md, "Errors"), published in the OpenAPI document. */
const PROBLEM_CODES: Record<number, string[]> = {
  400: ['validation_error'],
  401: ['unauthorized'],
  402: ['insufficient_credits', 'monthly_limit_reached'],
  403: ['forbidden'],
  404: ['not_found'],
  405: ['method_not_allowed'],
  409: ['request_in_flight', 'csd_already_exists', 'cancellation_in_progress'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['idempotency_key_reuse', 'sat_rejected'],
  429: ['rate_limited'],
  500: ['internal_error'],
  503: ['pac_unavailable', 'billing_unavailable', 'encryption_unavailable'],
};

/**
 * An `application/problem+json` response whose `code` is one of its status's codes. Problems are sent with their own
 * serializer (plugins/problem.ts), so this schema only documents them.
 */
export const problemResponse = (status: number) => {
  const codes = PROBLEM_CODES[status];
  if (!codes) throw new Error(`no problem codes listed for HTTP ${status}`);
  return {
    description: `Problem: ${codes.map((code) => `\`${code}\``).join(', ')}`,
    content: { 'application/problem+json': { schema: Type.Intersect([Type.Ref(ProblemSchema), Type.Object({ code: StringEnum(codes) })]) } },
  };
};

/**
 * Problem responses every authenticated route may return, plus the route's own: 400 too, since text PostgreSQL
 * cannot store (a NUL, a lone surrogate) is refused in any path parameter, query or header.
 */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries([400, 401, 429, ...statuses].map((s) => [s, problemResponse(s)]));

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

/** A union of string literals that keeps its literal types (a mapped `Type.Literal` would widen to string). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
