import { Type } from '@sinclair/typebox';
import type { SwaggerOptions } from '@fastify/swagger';
import { withContent } from './openapi-content';

/** Every tag an operation may carry, with what the group is about (Redocly's `operation-tag-defined`). */
export const API_TAGS = [
  { name: 'meta', description: 'Liveness and readiness of the server.' },
  { name: 'billing', description: "Balance, ledger and monthly usage of the key's account and mode." },
  {
    name: 'catalogs',
    description: 'SAT catalogs: product and unit keys, usos CFDI, regímenes fiscales, formas de pago.',
  },
  {
    name: 'merchants',
    description: 'Issuers of the account, their CSD (certificate and private key) and logo.',
  },
  {
    name: 'invoices',
    description: 'CFDI 4.0 income invoices (PUE, PPD, global), their cancellation and their files.',
  },
  { name: 'credit notes', description: 'Egreso CFDIs related to an invoice.' },
  {
    name: 'customers',
    description: 'Saved receivers: documents take customerId instead of repeating the fiscal data.',
  },
  {
    name: 'products',
    description:
      'Saved products and services: items take productId instead of repeating keys, price and taxes.',
  },
  {
    name: 'receipts',
    description:
      'Tickets of sales to the general public: nothing stamped until the customer invoices one in the self-invoicing portal, or the period’s global invoice covers it.',
  },
  {
    name: 'payments',
    description: 'Payment complements (Pagos 2.0) of PPD invoices, and their cancellation.',
  },
  {
    name: 'nominas',
    description:
      'Payroll receipts (CFDI type N with Nómina 1.2), one per employee and period, and payroll runs in batch.',
  },
  {
    name: 'retentions',
    description:
      'Withholding certificates (CFDI de retenciones e información de pagos, Retenciones 2.0): what was paid to a receiver and the taxes withheld, stamped and cancelled through the PAC’s retentions service. XML only.',
  },
  {
    name: 'traslados',
    description:
      'Traslado CFDIs (TipoDeComprobante T): the merchant’s own goods moved, issued to itself without amounts, with the Carta Porte 3.1 of the trip. XML, PDF and ZIP; REST only (no MCP tools).',
  },
  {
    name: 'webhooks',
    description:
      'Webhook endpoints: signed deliveries of events to your HTTPS URLs, their secrets and attempts.',
  },
  {
    name: 'events',
    description:
      'Events of the account and mode (stamped, stamp failed, cancelled…), their delivery attempts and redelivery.',
  },
  { name: 'files', description: 'Stored files behind signed URLs returned by the API (no API key).' },
];

const NOT_REST = ['/mcp', '/oauth/', '/.well-known/', '/stripe/'];

const IDEMPOTENCY_KEY = 'idempotency-key';
const IDEMPOTENCY_KEY_NAME = 'Idempotency-Key';

type JsonObject = {
  properties?: Record<string, { default?: unknown }>;
  required?: string[];
  allOf?: JsonObject[];
};

/** A query parameter with a default need not be sent (validation fills it in), so the document must not require it. */
function withDefaultsOptional(schema: JsonObject): JsonObject {
  if (schema.allOf) return { ...schema, allOf: schema.allOf.map(withDefaultsOptional) };
  if (!schema.required || !schema.properties) return schema;
  const properties = schema.properties;
  return { ...schema, required: schema.required.filter((name) => properties[name]?.default === undefined) };
}

/**
 * A choice validated as `if/then/else` (a document item in full or made from a product, see schemas/documents.ts) is
 * published as the `anyOf` it is equivalent to, which typed clients turn into a union.
 */
function withChoicesAsAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withChoicesAsAnyOf);
  if (typeof node !== 'object' || node === null) return node;
  const { if: condition, then, else: otherwise, ...rest } = node as Record<string, unknown>;
  const walked = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, withChoicesAsAnyOf(value)]),
  );
  if (condition === undefined) return walked;
  return { ...walked, anyOf: [withChoicesAsAnyOf(then), withChoicesAsAnyOf(otherwise)] };
}

/**
 * The static parts of `/v1/openapi.json` (OpenAPI 3.1.0: TypeBox emits JSON Schema 2020-12 keywords such as a
 * numeric `exclusiveMinimum` and `type: "null"`). Nothing depends on the configuration, so the committed copy in
 * packages/sdk stays byte-identical to what every server serves.
 */
export const swaggerOptions: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'CFDI 4.0 stamping API',
      version: '0.0.1',
      description:
        'Stamps Mexican electronic invoices (CFDI 4.0) with the SAT through a PAC. Errors are `application/problem+json` with a stable `code`.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'Your deployment',
        variables: { baseUrl: { default: 'http://127.0.0.1:3000', description: 'Where the API listens' } },
      },
    ],
    tags: API_TAGS,
    // Relative to the document's own address: guides, error codes and this reference on every deployment.
    externalDocs: { description: 'Guides, error codes and the rendered reference', url: '/docs' },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `sk_test_…` (test mode, sandbox PAC) or `sk_live_…`.',
        },
      },
    },
    security: [{ bearer: [] }],
  },
  // Shared schemas keep their $id as their component name (`#/components/schemas/Problem`), not `def-0`.
  refResolver: {
    buildLocalReference: (json, _baseUri, _fragment, i) =>
      typeof json.$id === 'string' ? json.$id : `def-${i}`,
  },
  transformObject: (documents) =>
    withContent(
      ('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject) as never,
    ) as never,
  transform: ({ schema, url }) => {
    // The tool server and OAuth describe themselves in their own protocols (MCP tools/list, RFC 8414/9728 metadata),
    // and only Stripe calls its webhook: none is part of the REST contract, nor of the typed client generated from it.
    if (NOT_REST.some((prefix) => url.startsWith(prefix))) return { schema: { ...schema, hide: true }, url };
    // Fastify's wildcard (`/files/*`) becomes a named path parameter: OpenAPI has no wildcard.
    if (url.endsWith('/*')) {
      return {
        schema: {
          ...schema,
          params: Type.Object({ key: Type.String({ description: 'Storage key, as in a signed URL' }) }),
        },
        url: `${url.slice(0, -1)}{key}`,
      };
    }
    if (schema?.querystring)
      schema = { ...schema, querystring: withDefaultsOptional(schema.querystring as JsonObject) };
    if (schema?.body) schema = { ...schema, body: withChoicesAsAnyOf(schema.body) as typeof schema.body };
    if (!schema?.headers) return { schema, url };
    // The header is optional for validation (a missing key is reported beside the body's errors, by the route), but
    // every operation that declares it requires it. Published with its conventional capitals.
    const headers = schema.headers as { properties?: Record<string, object>; required?: string[] };
    if (!headers.properties?.[IDEMPOTENCY_KEY]) return { schema, url };
    const { [IDEMPOTENCY_KEY]: keySchema, ...others } = headers.properties;
    const properties = { [IDEMPOTENCY_KEY_NAME]: keySchema, ...others };
    return {
      schema: {
        ...schema,
        headers: { ...headers, properties, required: [...(headers.required ?? []), IDEMPOTENCY_KEY_NAME] },
      },
      url,
    };
  },
};
