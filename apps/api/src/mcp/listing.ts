import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { SHIPPED_CATALOGS, type SmallCatalogName } from '@cfdi/catalogs';
import { describeFields } from '../field-glossary';
import { componentNameOf, withoutNames } from '../openapi-components';
import type { McpTool } from './tool';

type Node = Record<string, unknown>;

/** Arguments whose values are the keys of a small SAT catalog: listed as an enum, so a model picks a valid key. */
const CATALOG_ARGUMENTS: Readonly<Record<string, SmallCatalogName>> = {
  formaPago: 'formas-pago',
  usoCfdi: 'usos-cfdi',
  regimenFiscal: 'regimenes',
  metodoPago: 'metodos-pago',
  periodicidad: 'periodicidades',
  meses: 'meses',
};

/** The keys of a catalog in force today (a key whose vigencia ended is no longer accepted by the SAT). */
function catalogKeys(catalog: SmallCatalogName, today = new Date().toISOString().slice(0, 10)): string[] {
  return SHIPPED_CATALOGS[catalog]
    .filter((row) => !row.vigencia_hasta || row.vigencia_hasta >= today)
    .map((row) => row.clave!);
}

/** A string schema (or the string member of a nullable one) restricted to the catalog's keys. */
function withEnum(schema: Node, keys: string[]): Node {
  if (schema.type === 'string' && !schema.enum && !schema.const) return { ...schema, enum: keys };
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: schema.anyOf.map((member: Node) => withEnum(member, keys)) };
  return schema;
}

function withCatalogEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withCatalogEnums);
  if (typeof node !== 'object' || node === null) return node;
  const walked = Object.fromEntries(
    Object.entries(node as Node).map(([key, value]) => [key, withCatalogEnums(value)]),
  );
  const properties = walked.properties as Record<string, Node> | undefined;
  if (!properties || typeof properties !== 'object') return walked;
  return {
    ...walked,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => {
        const catalog = CATALOG_ARGUMENTS[name];
        return [name, catalog ? withEnum(schema, catalogKeys(catalog)) : schema];
      }),
    ),
  };
}

/** The component a schema is, or the components it is one of. */
function nameOf(schema: unknown): string | undefined {
  const members = (schema as { anyOf?: unknown[] } | undefined)?.anyOf;
  const names = Array.isArray(members) ? members.map(componentNameOf) : [componentNameOf(schema)];
  return names.every(Boolean) ? names.join(' | ') : undefined;
}

/** A result's component, or the component a list tool's `data` is a page of. */
function resultName(output: Node): string | undefined {
  const shapes = Array.isArray(output.anyOf) ? (output.anyOf as Node[]) : [output];
  const names = shapes.map((shape) => {
    const page = nameOf((shape.properties as { data?: { items?: unknown } } | undefined)?.data?.items);
    return componentNameOf(shape) ?? (page && `{object: "list", data: (${page})[], has_more}`);
  });
  return names.every(Boolean) ? names.join(' or ') : undefined;
}

/**
 * A tool's output schema by reference: an object, and the OpenAPI component it is (`structuredContent` is the REST
 * resource, described in full in /v1/openapi.json). Inlined, the results were 48 KB of the listing: every invoice
 * tool repeated the whole invoice.
 */
function referenced(output: Node): Node {
  const name = resultName(output);
  return {
    type: 'object',
    ...(name ? { description: `${name} in /v1/openapi.json` } : {}),
  };
}

/** Keywords a model does not need to write a valid call, left to validation (which reports them by field). */
const VALIDATION_ONLY = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'additionalProperties',
]);
/** `^[^|]*$` (text may not hold the CFDI's field separator) and the overflow bound of every amount. */
const isGuard = (key: string, value: unknown) =>
  (key === 'pattern' && value === '^[^|]*$') ||
  (key === 'maximum' && typeof value === 'number' && value >= 1e9);

/**
 * A schema without its validation-only keywords: lengths, counts and guards cost a quarter of the listing and tell
 * a model little; the server still checks them and answers a field path and a reason. The arguments object itself
 * keeps `additionalProperties: false` (see toolListing).
 */
function withoutGuards(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutGuards);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node as Node)
      .filter(([key, value]) => !VALIDATION_ONLY.has(key) && !isGuard(key, value))
      .map(([key, value]) => [
        key,
        key === 'properties' ? mapValues(value as Node, withoutGuards) : withoutGuards(value),
      ]),
  );
}

/** A value with an `enum` or a `const` says its type already. */
function withoutImpliedTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutImpliedTypes);
  if (typeof node !== 'object' || node === null) return node;
  const { type, ...rest } = node as Node;
  const implied = typeof type === 'string' && ('enum' in rest || 'const' in rest);
  const walked = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [
      key,
      key === 'properties' ? mapValues(value as Node, withoutImpliedTypes) : withoutImpliedTypes(value),
    ]),
  );
  // An enum's pattern repeats what the enum says.
  if ('enum' in walked) delete walked.pattern;
  return implied || type === undefined ? walked : { type, ...walked };
}

/**
 * The hints that differ from MCP's defaults (readOnlyHint false, destructiveHint true, idempotentHint false,
 * openWorldHint true; the last three mean nothing on a read-only tool), without the title the tool carries already.
 */
function hintsOf(annotations: McpTool['annotations']): Node {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return {
    ...(readOnlyHint
      ? { readOnlyHint }
      : { ...(destructiveHint ? {} : { destructiveHint }), ...(idempotentHint ? { idempotentHint } : {}) }),
    ...(openWorldHint ? {} : { openWorldHint }),
  };
}

const mapValues = (object: Node, f: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [key, f(value)]));

/** `anyOf: [X, {type: "null"}]` for a simply typed X written as X with `type: [X's type, "null"]`. */
function compactNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactNullable);
  if (typeof node !== 'object' || node === null) return node;
  const walked = Object.fromEntries(
    Object.entries(node as Node).map(([key, value]) => [key, compactNullable(value)]),
  ) as Node;
  const members = walked.anyOf as Node[] | undefined;
  if (!Array.isArray(members) || members.length !== 2) return walked;
  const [value, none] = members[1]?.type === 'null' ? members : [members[1]!, members[0]!];
  if (none?.type !== 'null' || Object.keys(none).length !== 1 || typeof value?.type !== 'string')
    return walked;
  if ('enum' in value || 'const' in value || value.type === 'null') return walked;
  const { anyOf: _members, ...rest } = walked;
  // The value's own description (or its pointer to another tool) over the union's, which is the glossary's.
  const description = value.description ?? rest.description;
  return { ...value, ...rest, type: [value.type, 'null'], ...(description ? { description } : {}) };
}

/**
 * Sub-schemas of SHARED_FROM bytes or more already listed in full by an earlier tool (an invoice item, a receiver, a
 * customer's fields) are written once: later tools name where (`As create_invoice.items`). A listing
 * has no shared definitions across tools, so this is the sharing; each tool's validation still uses its full schema.
 */
const SHARED_FROM = 80;

function sharedOnce(listing: Tool[]): Tool[] {
  const seen = new Map<string, string>();
  const share = (node: unknown, where: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => share(item, `${where}[${i}]`));
    if (typeof node !== 'object' || node === null) return node;
    const schema = node as Node;
    const text = JSON.stringify(schema);
    if (text.length >= SHARED_FROM && seen.has(text)) {
      // The whole schema, its description included, is the one named: a pointer is all it takes.
      return { ...(schema.type ? { type: schema.type } : {}), description: `As ${seen.get(text)!}` };
    }
    if (text.length >= SHARED_FROM) seen.set(text, where);
    const properties = schema.properties as Record<string, unknown> | undefined;
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [
        key,
        key === 'properties' && properties
          ? Object.fromEntries(
              Object.entries(properties).map(([name, p]) => [name, share(p, `${where}.${name}`)]),
            )
          : share(value, key === 'items' ? `${where}[]` : where),
      ]),
    );
  };
  return listing.map((tool) => ({
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: Object.fromEntries(
        Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => [
          name,
          share(schema, `${tool.name}.${name}`) as object,
        ]),
      ),
    },
  }));
}

/**
 * Deep arguments that few calls use, listed as an object with a pointer to their full schema in the OpenAPI document
 * (the Comercio Exterior complement alone was 5 KB of create_invoice). Validation still uses the full schema and
 * answers any mistake with its field path.
 */
const LISTED_BY_REFERENCE: Readonly<Record<string, string>> = {
  comercioExterior: 'InvoiceCreate.comercioExterior',
};

function referencedArguments(schema: Node): Node {
  const properties = schema.properties as Record<string, Node> | undefined;
  if (!properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const component = LISTED_BY_REFERENCE[name];
        if (!component) return [name, property];
        const description = `${property.description ?? name}; its fields: ${component} in /v1/openapi.json`;
        return [name, { type: 'object', description }];
      }),
    ),
  };
}

/** JSON Schema as JSON (without TypeBox's symbol keys). */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Node;

/**
 * What tools/list answers: each tool's arguments (described by the glossary where their schema says nothing, SAT
 * keys as enums, a sub-schema another tool lists already named rather than repeated), and its result by reference
 * to the OpenAPI document, which describes it in full.
 */
export function toolListing(tools: readonly McpTool[]): Tool[] {
  const listing = tools.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: referencedArguments(
      withoutImpliedTypes(
        withoutGuards(withCatalogEnums(describeFields(withoutNames(plain(tool.input))))),
      ) as Node,
    ) as Tool['inputSchema'],
    outputSchema: referenced(tool.output as Node) as Tool['outputSchema'],
    annotations: hintsOf(tool.annotations),
  }));
  // Shared before nullable values are compacted, so `X or null` in one tool points to X in another.
  return sharedOnce(listing).map((tool) => ({
    ...tool,
    inputSchema: {
      ...(compactNullable(tool.inputSchema) as Tool['inputSchema']),
      additionalProperties: false,
    },
  }));
}
