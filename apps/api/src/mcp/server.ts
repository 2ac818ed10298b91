import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastJson from 'fast-json-stringify';
import type { TSchema } from '@sinclair/typebox';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError, ForbiddenError, ValidationError } from '@cfdi/services';
import { problemBody } from '../plugins/problem';
import { toFieldErrors } from '../plugins/validation';
import { toolListing } from './listing';
import type { McpTool, ToolContext } from './tool';
import { MCP_TOOLS } from './tools';

// Arguments are validated like REST bodies: no coercion, unknown fields refused, every error collected.
const ajv = addFormats(
  new Ajv({ allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false, strict: false }),
);
const TOOLS = new Map<string, { tool: McpTool; validate: ValidateFunction }>(
  MCP_TOOLS.map((tool) => [tool.name, { tool, validate: ajv.compile(tool.input) }]),
);

// The REST responses go through Fastify's serializer, fast-json-stringify, which keeps only the properties the response
// schema names; the tool results go through the same one with the same schema, so both doors answer the same shape.
const serializers = new WeakMap<TSchema, (value: unknown) => string>();
function shape(schema: TSchema, value: unknown): Record<string, unknown> {
  let serialize = serializers.get(schema);
  if (!serialize)
    serializers.set(schema, (serialize = fastJson(schema as never) as (value: unknown) => string));
  return JSON.parse(serialize(value)) as Record<string, unknown>;
}

const LISTING: Tool[] = toolListing(MCP_TOOLS);
// Listed on its own, so a shared sub-schema points to a tool the read-only listing has.
const READ_LISTING: Tool[] = toolListing(MCP_TOOLS.filter((tool) => tool.annotations.readOnlyHint));

/** A write tool called through a read-only grant: a 403 problem that says which scope is missing and how to get it. */
function readOnlyRefusal(ctx: McpCallContext, tool: McpTool): CallToolResult {
  const refusal = new ForbiddenError(
    `${tool.name} needs the write scope; this connection was granted read only. Connect the application again and approve write access.`,
  );
  return errorResult(problemBody(ctx.docsUrl, refusal), undefined);
}

const INSTRUCTIONS =
  'Issue, find, pay and cancel Mexican electronic invoices (CFDI 4.0) stamped with the SAT. Money is in MXN pesos ' +
  '(up to 2 decimals, 6 for unit prices; balances in centavos), dates and times are Mexico City local time ' +
  '(YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS), creation-time filters ISO 8601 UTC. Start with list_merchants for the merchantId ' +
  'and search_product_codes / search_unit_codes for item keys; get_catalog has the usoCfdi, regimenFiscal and formaPago ' +
  'keys. A stamping tool waits up to 20 s for the stamp; a result still stamping is followed with its get tool. ' +
  'Stamping and cancelling cost one timbre each and require an idempotency_key: a new unique one per document or ' +
  'cancellation, and the same one when you retry a call, so a retry never stamps or charges twice. List tools answer ' +
  'newest first, up to limit (default 10, at most 100) per page; pass starting_after = the last id while has_more. An ' +
  'argument described "As tool.path" is that argument of that tool, "As tool" its argument of the same name. A result ' +
  '(structuredContent) is the REST resource its outputSchema title names, described in full in /v1/openapi.json.';

export interface McpCallContext extends ToolContext {
  docsUrl: string;
  /** False for an OAuth grant of the `read` scope alone: only the read-only tools are listed and callable. */
  canWrite: boolean;
  /** The 429 to answer every tool call of this HTTP request with, when the account is over its rate limit. */
  rateLimited: AppError | null;
}

function errorResult(problem: object, idempotencyKey: string | undefined): CallToolResult {
  const withKey = idempotencyKey ? { ...problem, idempotency_key: idempotencyKey } : problem;
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(withKey) }] };
}

/**
 * One tool call: arguments validated against the tool's schema, then the same operation as the REST route. A
 * service problem becomes an `isError` result carrying the problem+json members (code, detail, errors[] with field
 * paths, satCode) so the agent can fix its arguments; a success carries the REST resource as `structuredContent`.
 */
async function callTool(
  ctx: McpCallContext,
  tool: McpTool,
  validate: ValidateFunction,
  given: Record<string, unknown>,
): Promise<CallToolResult> {
  const args = structuredClone(given);
  // Required by every stamping and cancelling tool (see IdempotencyKeyProperty); echoed in every answer once given.
  const takesKey = 'idempotency_key' in tool.input.properties;
  const key = takesKey && typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined;
  try {
    if (ctx.rateLimited) throw ctx.rateLimited;
    if (!validate(args)) {
      const errors = toFieldErrors(validate.errors ?? []);
      throw new ValidationError(
        `The arguments are invalid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
        errors,
      );
    }
    const answer = await tool.run(ctx, args as never);
    // A problem stored under the idempotency key by an earlier attempt is replayed as the error it was.
    if (answer.status >= 400) return errorResult(answer.body as object, key);
    const body = shape(tool.shapeOf?.(answer.status) ?? tool.output, answer.body);
    const keyLine = key ? `\nidempotency_key: ${key} (retry with it; it never stamps or charges twice)` : '';
    return {
      content: [{ type: 'text', text: `${tool.summarize(body as never, answer)}${keyLine}` }],
      structuredContent: body,
      ...(key ? { _meta: { idempotencyKey: key, idempotencyReplayed: answer.replayed === true } } : {}),
    };
  } catch (error) {
    if (error instanceof AppError) return errorResult(problemBody(ctx.docsUrl, error), key);
    ctx.log.error({ err: error, tool: tool.name }, 'unhandled error in an MCP tool');
    return errorResult(
      problemBody(
        ctx.docsUrl,
        new AppError(
          500,
          'internal_error',
          'Internal error',
          'An unexpected error occurred. It has been logged.',
        ),
      ),
      key,
    );
  }
}

/**
 * A server for one HTTP request (stateless Streamable HTTP: no session, any replica answers any call). The low-level
 * `Server` takes JSON Schema as is, so the listing is the TypeBox schemas the REST routes validate with.
 */
export function buildMcpServer(ctx: McpCallContext): Server {
  const server = new Server(
    { name: 'cfdi-platform', title: 'CFDI 4.0 invoicing', version: '0.0.1' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: ctx.canWrite ? LISTING : READ_LISTING,
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = TOOLS.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    if (!ctx.canWrite && !entry.tool.annotations.readOnlyHint) return readOnlyRefusal(ctx, entry.tool);
    return callTool(ctx, entry.tool, entry.validate, request.params.arguments ?? {});
  });
  return server;
}
