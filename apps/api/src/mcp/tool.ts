import { randomBytes } from 'node:crypto';
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Scope } from '@cfdi/services';
import type { AppDeps } from '../deps';
import type { Answer } from '../operations/idempotent';

export interface ToolContext {
  deps: AppDeps;
  scope: Scope;
  log: FastifyBaseLogger;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * One MCP tool: its arguments are a TypeBox object built from the REST route's own schemas (so a field added to a
 * REST body appears in the tool), its result is the REST answer's resource, cut to `shapeOf(status)` exactly as the
 * REST response serializer cuts it.
 */
export interface McpTool<I extends TObject = TObject> {
  name: string;
  description: string;
  input: I;
  /** What `structuredContent` may be (the union of every shape when a status decides it). */
  output: TSchema;
  /** The shape of the answer of one status, when it depends on the status (201 stamped, 202 still stamping). */
  shapeOf?(status: number): TSchema;
  annotations: ToolAnnotations;
  run(ctx: ToolContext, args: Static<I>): Promise<Answer & { idempotencyKey?: string }>;
  /** A sentence or a few lines for a model to read. */
  summarize(body: never, answer: Answer): string;
}

export const defineTool = <I extends TObject>(tool: McpTool<I>): McpTool => tool as unknown as McpTool;

/** A closed object: MCP arguments are JSON like a REST body, so unknown fields are refused the same way. */
export const ToolInput = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });

export const IdempotencyKeyProperty = Type.Optional(Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'Same meaning as the REST Idempotency-Key header: a retry with the same key and the same arguments returns the first '
    + 'result without stamping or charging again. Omit it and one is generated and returned in the result; reuse that one to retry.',
}));

/** A key for a stamping or cancelling call that came without one; the result returns it so a retry can reuse it. */
export const generateIdempotencyKey = () => `mcp_${randomBytes(16).toString('hex')}`;

/** Splits the tool's own `idempotency_key` (always set by the server before `run`) from the REST body. */
export function withIdempotencyKey<T extends { idempotency_key?: string }>(args: T): { key: string; body: Omit<T, 'idempotency_key'> } {
  const { idempotency_key: key, ...body } = args;
  return { key: key ?? generateIdempotencyKey(), body };
}

/** `structuredContent` must be an object schema: a status-dependent answer lists its shapes under anyOf. */
export const OneOfShapes = (...shapes: TSchema[]): TSchema => Type.Unsafe({ type: 'object', anyOf: shapes });

export const pesos = (amount: number | null | undefined) =>
  amount === null || amount === undefined ? 'n/a' : `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} MXN`;
