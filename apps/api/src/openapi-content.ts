import { describeFields, describeParameter } from './field-glossary';
import { hoistNamedSchemas } from './openapi-components';
import { EXAMPLES } from './openapi-examples';

type Node = Record<string, unknown>;
type MediaType = { schema?: Node; example?: unknown };
type Response = {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
};
type Operation = {
  parameters?: { name: string; in: string; description?: string }[];
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, Response>;
};

/** The response headers the API sends, documented once under `components.headers`. */
const HEADERS = {
  'X-Request-Id': {
    description:
      'The id of this request in the logs: your X-Request-Id, or one made for it. Quote it to support.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: "Requests the account may make per minute (the account's limit or the server's default).",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' },
  },
  'Idempotency-Replayed': {
    description:
      'true when this answer is the stored answer of an earlier request with the same Idempotency-Key (nothing was done again).',
    schema: { type: 'string', enum: ['true'] },
  },
};
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/**
 * Which headers a response carries: every answer its request id; every /v1 answer but a 401 (authenticated, counted
 * against the per-minute limit: plugins/auth.ts) the rate-limit headers; a 429, and a file not rendered yet (its 404, routes/files.ts),
 * a Retry-After; a success of an operation that takes an Idempotency-Key, Idempotency-Replayed when it is a replay.
 */
function headersOf(path: string, status: string, operation: Operation): Record<string, unknown> {
  const names: (keyof typeof HEADERS)[] = ['X-Request-Id'];
  if (path.startsWith('/v1/') && status !== '401') names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining');
  if (status === '429' || (status === '404' && path.startsWith('/files/'))) names.push('Retry-After');
  const idempotent = operation.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  if (idempotent && status.startsWith('2')) names.push('Idempotency-Replayed');
  return Object.fromEntries(names.map((name) => [name, header(name)]));
}

const componentName = (schema: Node | undefined) =>
  typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;

/** The example of a request or response schema: its component's, or a page of one for a list of components. */
function exampleOf(schema: Node | undefined): unknown {
  const name = componentName(schema);
  if (name) return EXAMPLES[name];
  const properties = schema?.properties as Record<string, Node> | undefined;
  const item = componentName(properties?.data?.items as Node | undefined);
  if (!item || EXAMPLES[item] === undefined) return undefined;
  return {
    object: 'list',
    data: [EXAMPLES[item]],
    ...('has_more' in properties! ? { has_more: false } : {}),
  };
}

function withExample(media: MediaType | undefined): void {
  const example = exampleOf(media?.schema);
  if (media && example !== undefined) media.example = example;
}

/**
 * The route schemas' document with its content: named schemas as components, the glossary's descriptions where a
 * schema has none, an example for every request body and success answer, and the response headers.
 */
export function withContent(document: Node): Node {
  const hoisted = hoistNamedSchemas(document);
  const described = describeFields(hoisted) as Node & { paths: Record<string, Record<string, Operation>> };
  for (const [path, methods] of Object.entries(described.paths))
    for (const operation of Object.values(methods)) {
      if (operation.parameters) operation.parameters = operation.parameters.map(describeParameter);
      withExample(operation.requestBody?.content?.['application/json']);
      for (const [status, response] of Object.entries(operation.responses)) {
        response.headers = { ...response.headers, ...headersOf(path, status, operation) };
        if (status.startsWith('2')) withExample(response.content?.['application/json']);
      }
    }
  const components = described.components as Node;
  return { ...described, components: { ...components, headers: HEADERS } };
}
