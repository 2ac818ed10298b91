import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { testConfig } from '@cfdi/testkit';
import { openapiDocument } from '../src/openapi-document';

// What the published document holds beyond its operations (openapi.test.ts): named schemas, descriptions, examples
// that match their schemas, and the response headers.

type Schema = Record<string, unknown>;
type MediaType = { schema?: Schema; example?: unknown };
type Operation = {
  operationId: string;
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, MediaType> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; headers: Record<string, unknown> };
};

const REQUIRED_DESCRIBED = 0.95;

let document: Document;
let operations: { where: string; path: string; operation: Operation }[];
beforeAll(async () => {
  document = (await openapiDocument(testConfig())) as unknown as Document;
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      where: `${method.toUpperCase()} ${path}`,
      path,
      operation,
    })),
  );
}, 60_000);

const json = (content: Record<string, MediaType> | undefined) => content?.['application/json'];
const pointer = (...parts: string[]) =>
  `#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

it('names every request body and every resource answered in components.schemas, Problem included', () => {
  const inline = operations.flatMap(({ where, operation }) => {
    const body = json(operation.requestBody?.content)?.schema;
    const answers = Object.entries(operation.responses)
      .filter(([status]) => status.startsWith('2'))
      .map(([status, response]) => [status, json(response.content)?.schema] as const)
      .filter(([, schema]) => schema !== undefined);
    const listItem = (schema: Schema | undefined) =>
      (schema?.properties as { data?: { items?: Schema } } | undefined)?.data?.items;
    return [
      ...(body && !body.$ref ? [`${where} request body`] : []),
      ...answers
        .filter(([, schema]) => !schema!.$ref && !listItem(schema)?.$ref)
        .map(([status]) => `${where} ${status}`),
    ];
  });
  expect(inline).toEqual([]);
  expect(Object.keys(document.components.schemas)).toEqual(
    expect.arrayContaining(['Problem', 'Invoice', 'InvoiceCreate', 'Customer', 'Nomina', 'WebhookEndpoint']),
  );
});

it(`describes at least ${REQUIRED_DESCRIBED * 100} % of the properties and of the parameters`, () => {
  const properties: string[] = [];
  const undescribed: string[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, where));
    if (typeof node !== 'object' || node === null) return;
    const { properties: own, ...rest } = node as Schema;
    if (own && typeof own === 'object' && !Array.isArray(own))
      for (const [name, schema] of Object.entries(own as Record<string, Schema>)) {
        properties.push(`${where}.${name}`);
        // A reference is described by the component it names.
        if (!schema.description && !schema.$ref) undescribed.push(`${where}.${name}`);
        walk(schema, `${where}.${name}`);
      }
    for (const [key, value] of Object.entries(rest)) if (key !== 'example') walk(value, where);
  };
  for (const [name, schema] of Object.entries(document.components.schemas)) walk(schema, name);
  for (const { where, operation } of operations) {
    walk(operation.requestBody, where);
    walk(operation.responses, where);
  }
  const parameters = operations.flatMap(({ where, operation }) =>
    (operation.parameters ?? []).map((p) => ({
      name: `${where} ${p.in} ${p.name}`,
      described: !!p.description,
    })),
  );
  const undescribedParameters = parameters.filter((p) => !p.described).map((p) => p.name);
  const share = (total: number, missing: number) => (total - missing) / total;
  const propertyShare = share(properties.length, undescribed.length);
  const parameterShare = share(parameters.length, undescribedParameters.length);
  console.log(
    `OpenAPI descriptions: properties ${(propertyShare * 100).toFixed(1)} % of ${properties.length}, ` +
      `parameters ${(parameterShare * 100).toFixed(1)} % of ${parameters.length}` +
      (undescribed.length + undescribedParameters.length
        ? `; undescribed: ${[...undescribed, ...undescribedParameters].join(', ')}`
        : ''),
  );
  expect(properties.length).toBeGreaterThan(500);
  expect(propertyShare).toBeGreaterThanOrEqual(REQUIRED_DESCRIBED);
  expect(parameterShare).toBeGreaterThanOrEqual(REQUIRED_DESCRIBED);
});

it('gives every operation an example of its request body and of each JSON success answer, valid against its schema', () => {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const problems: string[] = [];
  let checked = 0;
  const check = (where: string, media: MediaType | undefined, at: string) => {
    if (!media?.schema) return;
    if (media.example === undefined) return void problems.push(`${where}: no example`);
    const validate = ajv.compile({ $ref: `openapi.json${at}` });
    checked += 1;
    if (!validate(media.example))
      problems.push(`${where}: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`);
  };
  for (const { where, path, operation } of operations) {
    const method = where.split(' ')[0]!.toLowerCase();
    check(
      `${where} request`,
      json(operation.requestBody?.content),
      pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'),
    );
    for (const [status, response] of Object.entries(operation.responses))
      if (status.startsWith('2'))
        check(
          `${where} ${status}`,
          json(response.content),
          pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema'),
        );
  }
  expect(problems).toEqual([]);
  expect(checked).toBeGreaterThan(operations.length);
});

it('documents the response headers: request id, rate limits, Retry-After and Idempotency-Replayed', () => {
  const headersOf = (path: string, method: string, status: string) =>
    Object.keys(document.paths[path]![method]!.responses[status]!.headers ?? {});
  expect(Object.keys(document.components.headers).sort()).toEqual([
    'Idempotency-Replayed',
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-Request-Id',
  ]);
  expect(headersOf('/v1/invoices', 'post', '201')).toEqual(
    expect.arrayContaining([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'Idempotency-Replayed',
    ]),
  );
  expect(headersOf('/v1/invoices', 'get', '200')).not.toContain('Idempotency-Replayed');
  expect(headersOf('/v1/invoices', 'get', '429')).toContain('Retry-After');
  expect(headersOf('/v1/invoices', 'get', '401')).not.toContain('X-RateLimit-Limit');
  expect(headersOf('/files/{key}', 'get', '404')).toContain('Retry-After');
  expect(headersOf('/live', 'get', '200')).toEqual(['X-Request-Id']);
});
