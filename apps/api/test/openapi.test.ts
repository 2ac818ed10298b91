import { testConfig } from '@cfdi/testkit';
import { openapiDocument } from '../src/openapi-document';

// Stripe-like operation names: a verb from this list (Stripe's, plus domain verbs such as stamp), then the resource.
const OPERATION_ID =
  /^(create|retrieve|list|update|replace|delete|cancel|search|verify|send|resend|redeliver|rotate|pay|void|test|stamp)[A-Z][A-Za-z]+$/;

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { in: string; name: string; required?: boolean }[];
  responses: Record<string, { content?: Record<string, { schema: { allOf?: unknown[] } }> }>;
};

let document: {
  openapi: string;
  servers: unknown[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
};
let operations: { where: string; operation: Operation }[];
beforeAll(async () => {
  document = (await openapiDocument(testConfig())) as typeof document;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      where: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );
}, 60_000);

it('is OpenAPI 3.1.0 with servers, declared tags and a bearer security scheme', () => {
  expect(document.openapi).toBe('3.1.0');
  expect(document.servers.length).toBeGreaterThan(0);
  expect(document).toMatchObject({
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
  });
  for (const tag of document.tags) expect(tag.description).toBeTruthy();
});

// Every route added anywhere must say what it is: this is the check that catches an undocumented one.
it('gives every operation an operationId with a Stripe-like verb, a summary, a description and declared tags', () => {
  const declared = new Set(document.tags.map((t) => t.name));
  const missing = operations.flatMap(({ where, operation }) => [
    ...(OPERATION_ID.test(operation.operationId ?? '')
      ? []
      : [`${where}: operationId ${operation.operationId ?? '(none)'}`]),
    ...(operation.summary ? [] : [`${where}: summary`]),
    ...(operation.description ? [] : [`${where}: description`]),
    ...(operation.tags?.length ? [] : [`${where}: tags`]),
    ...(operation.tags ?? [])
      .filter((tag) => !declared.has(tag))
      .map((tag) => `${where}: tag "${tag}" not in API_TAGS (src/openapi.ts)`),
  ]);
  expect(missing).toEqual([]);
  const ids = operations.map(({ operation }) => operation.operationId);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
});

it('documents every error answer as problem+json with its code values', () => {
  const plain = operations.flatMap(({ where, operation }) =>
    Object.entries(operation.responses)
      // /ready answers 503 with its own body (which dependency is down), not a problem.
      .filter(([status]) => Number(status) >= 400 && where !== 'GET /ready')
      .filter(([, response]) => !response.content?.['application/problem+json']?.schema.allOf)
      .map(([status]) => `${where} ${status}`),
  );
  expect(plain).toEqual([]);
  expect(document.paths['/v1/invoices']!.post!.responses['402']).toMatchObject({
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Problem' },
            { properties: { code: { enum: ['insufficient_credits', 'monthly_limit_reached'] } } },
          ],
        },
      },
    },
  });
});

it('declares Idempotency-Key as a required header where the route reads it', () => {
  const withKey = operations.filter(({ operation }) =>
    operation.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
  );
  expect(withKey.map((o) => o.where).sort()).toEqual(
    expect.arrayContaining(['POST /v1/invoices', 'POST /v1/credit_notes', 'POST /v1/invoices/{id}/payments']),
  );
  for (const { operation } of withKey)
    expect(operation.parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }),
    );
});
