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

/**
 * Problem responses every authenticated route may return, for the OpenAPI document: 400 too, since text PostgreSQL
 * cannot store (a NUL, a lone surrogate) is refused in any path parameter, query or header.
 */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries([400, 401, 429, ...statuses].map((s) => [s, Type.Ref(ProblemSchema)]));

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

/** A union of string literals that keeps its literal types (a mapped `Type.Literal` would widen to string). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
