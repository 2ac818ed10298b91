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
    return componentNameOf(shape) ?? (page && `a list of ${page}`);
  });
  return names.every(Boolean) ? names.join(' or ') : undefined;
}

/**
 * A tool's output schema by reference: an object titled with the OpenAPI component it is (`structuredContent` is the
 * REST resource, described in full in /v1/openapi.json, as the server's instructions say once). Inlined, the results
 * were 48 KB of the listing: every invoice tool repeated the whole invoice.
 */
function referenced(output: Node): Node {
  const name = resultName(output);
  return { type: 'object', ...(name ? { title: name } : {}) };
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
/**
 * `^[^|]*$` (text may not hold the CFDI's field separator), the overflow bound of every amount, the bound 0 of amounts
 * and rates (no model writes a negative price; validation says so if one does), and patterns too long
 * to help a model write a value (a CURP's or an e-mail address's: the description says what the value is).
 */
const LONGEST_LISTED_PATTERN = 60;
const isGuard = (key: string, value: unknown) =>
  ((key === 'minimum' || key === 'exclusiveMinimum') && value === 0) ||
  (key === 'pattern' && (value === '^[^|]*$' || String(value).length > LONGEST_LISTED_PATTERN)) ||
  (key === 'maximum' && typeof value === 'number' && value >= 1e9);

/** A date's pattern says what `format: "date"` says in fewer bytes (the server still validates the pattern). */
const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

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
      .map(([key, value]) =>
        key === 'pattern' && value === DATE_PATTERN
          ? ['format', 'date']
          : [key, key === 'properties' ? mapValues(value as Node, withoutGuards) : withoutGuards(value)],
      ),
  );
}

/** A value with an `enum` or a `const` says its type already, and a string's `pattern` or `format` says it is one. */
function withoutImpliedTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutImpliedTypes);
  if (typeof node !== 'object' || node === null) return node;
  const { type, ...rest } = node as Node;
  const implied =
    typeof type === 'string' &&
    ('enum' in rest || 'const' in rest || (type === 'string' && ('pattern' in rest || 'format' in rest)));
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

/**
 * A pointer to where an earlier tool lists the same schema in full: `As create_invoice.items[].ivaRate`, or
 * `As create_invoice` for that tool's argument of the same name (`at` is where the pointer is written).
 */
function pointer(where: string, at = ''): Node {
  const tool = where.slice(0, where.indexOf('.'));
  const sameName = at.endsWith(`.${where.slice(tool.length + 1)}`) && /^\w+\.\w+$/.test(where);
  return { description: `As ${sameName ? tool : where}` };
}
const isPointer = (node: Node | undefined) =>
  !!node && Object.keys(node).length === 1 && String(node.description).startsWith('As ');

/** The values a union of constants and enums allows (`null` for a `{type: "null"}` member), or none if it is more. */
function unionValues(members: Node[]): unknown[] | undefined {
  const values: unknown[] = [];
  for (const member of members) {
    const keys = Object.keys(member);
    if (keys.length === 1 && 'const' in member) values.push(member.const);
    else if (keys.length === 1 && Array.isArray(member.enum)) values.push(...member.enum);
    else if (keys.length === 1 && member.type === 'null') values.push(null);
    else return undefined;
  }
  return values;
}

/**
 * Unions written in fewer bytes: constants (and `null`) as one `enum`; `anyOf: [X, {type: "null"}]` for a simply
 * typed X as X with `type: [X's type, "null"]`; a pointer or null as the pointer said `or null`.
 */
function compactUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactUnions);
  if (typeof node !== 'object' || node === null) return node;
  const walked = Object.fromEntries(
    Object.entries(node as Node).map(([key, value]) => [key, compactUnions(value)]),
  ) as Node;
  const members = walked.anyOf as Node[] | undefined;
  if (!Array.isArray(members)) return walked;
  const { anyOf: _members, ...rest } = walked;
  const values = unionValues(members);
  if (values) return { ...rest, enum: values };
  if (members.length !== 2) return walked;
  const [value, none] = members[1]?.type === 'null' ? members : [members[1]!, members[0]!];
  if (none?.type !== 'null' || Object.keys(none).length !== 1) return walked;
  if (isPointer(value)) {
    const nullable = `${String(value!.description)} or null`;
    // The union's own description, when it has one, says what this argument is for here.
    return {
      description: rest.description ? `${String(rest.description)}; a${nullable.slice(1)}` : nullable,
    };
  }
  if (typeof value?.type !== 'string' || 'enum' in value || 'const' in value || value.type === 'null')
    return walked;
  // The value's own description (or its pointer to another tool) over the union's, which is the glossary's.
  const description = value.description ?? rest.description;
  return { ...value, ...rest, type: [value.type, 'null'], ...(description ? { description } : {}) };
}

/**
 * Sub-schemas of SHARED_FROM bytes or more already listed in full by an earlier tool (an invoice item, a receiver, a
 * customer's fields) are written once: later tools name where (`As create_invoice.items`). A listing
 * has no shared definitions across tools, so this is the sharing; each tool's validation still uses its full schema.
 */
// 60 (was 80): a merchantId's description or a payroll concept's clave, repeated by many tools, is a pointer too.
const SHARED_FROM = 60;

function sharedOnce(listing: Tool[]): Tool[] {
  const seen = new Map<string, string>();
  const seenKeys = new Map<string, string>();
  const share = (node: unknown, where: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => share(item, `${where}[${i}]`));
    if (typeof node !== 'object' || node === null) return node;
    const schema = node as Node;
    const text = JSON.stringify(schema);
    if (text.length >= SHARED_FROM && seen.has(text)) {
      // The whole schema, its type and description included, is the one named: a pointer is all it takes.
      return pointer(seen.get(text)!, where);
    }
    if (text.length >= SHARED_FROM) seen.set(text, where);
    // The same catalog's keys under another description: the description stays, the keys are named by where.
    const keys = Array.isArray(schema.enum) ? JSON.stringify(schema.enum) : '';
    if (keys.length >= SHARED_FROM && seenKeys.has(keys)) {
      const { enum: _keys, ...rest } = schema;
      if (typeof rest.description !== 'string') return { ...rest, ...pointer(seenKeys.get(keys)!, where) };
      return {
        ...rest,
        description: `${rest.description}; keys ${pointer(seenKeys.get(keys)!, where).description!.toString().replace(/^As/, 'as')}`,
      };
    }
    if (keys.length >= SHARED_FROM) seenKeys.set(keys, where);
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
  cartaPorte: 'CartaPorte',
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
        const description = `${property.description ?? name}; fields: ${component} in /v1/openapi.json`;
        return [name, { type: 'object', description }];
      }),
    ),
  };
}

/**
 * Sub-objects few calls need (payroll's severance, pension, overtime, stock options, balance compensation and sick
 * leave) or whose fields say what they are (a customer's postal address: street, city…; the payroll employee and
 * period, named as the SAT's Nómina 1.2 attributes, whose rules the server reports with their NOM code; a withholding
 * certificate's receiver, totals and withholdings, named as the SAT's Retenciones 2.0 attributes) listed with their
 * fields named in the description (`{numAniosServicio, ultimoSueldoMensOrd}`, `?` for an optional one, an enum's
 * values after it) instead of as a schema: a model still learns the names and keys, the server still validates every
 * field and answers a mistake with its path. `tool.argument` names one tool's argument only (an invoice's receiver
 * stays a schema).
 */
const FIELDS_IN_TEXT = new Set([
  'address',
  'employee',
  'period',
  'incapacidades',
  'separacionIndemnizacion',
  'jubilacionPensionRetiro',
  'horasExtra',
  'accionesOTitulos',
  'compensacionSaldosAFavor',
  'shipping',
  'informacionGlobal',
  'relatedDocuments',
  'percepciones',
  'deducciones',
  'otrosPagos',
  'create_retention.related',
  'create_retention.receiver',
  'create_retention.totals',
  'create_retention.withholdings',
]);

function fieldsText(schema: Node): string {
  const value = nonNull(schema) ?? schema;
  const object = (value.type === 'array' ? value.items : value) as Node;
  const required = new Set((object.required as string[] | undefined) ?? []);
  const fields = Object.entries((object.properties ?? {}) as Record<string, Node>).map(
    ([name, field]) =>
      `${name}${required.has(name) ? '' : '?'}${Array.isArray(field.enum) ? ` ${field.enum.join('|')}` : ''}`,
  );
  const text = `{${fields.join(', ')}}`;
  return value.type === 'array' ? `[${text}]` : text;
}

/**
 * A field as its description and its fields' names. A nullable one stays a union with null (the text its value), so
 * an edit tool's `X or null` still points to its maker's X and a maker's `X or null` is `type: [X, "null"]`.
 */
function inText(field: Node, name: string): Node {
  const value = nonNull(field) ?? field;
  const text = {
    ...(typeof value.type === 'string' ? { type: value.type } : {}),
    description: `${field.description ?? value.description ?? name}: ${fieldsText(field)}`,
  };
  return value === field ? text : { anyOf: [text, { type: 'null' }] };
}

function withFieldsInText(node: unknown, tool: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withFieldsInText(item, tool));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node as Node).map(([key, value]) => [
      key,
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Record<string, Node>).map(([name, field]) =>
              FIELDS_IN_TEXT.has(name) || FIELDS_IN_TEXT.has(`${tool}.${name}`)
                ? [name, inText(field, name)]
                : [name, withFieldsInText(field, tool)],
            ),
          )
        : withFieldsInText(value, tool),
    ]),
  );
}

/**
 * The tools that change a saved object take the fields of the tools that make it, each optional (null removes an
 * optional one, as their descriptions say). A field that is the maker's but for its description and `null` is listed
 * as a pointer to the maker's (an edited draft's fields were 4 KB of the listing, all of them create_invoice's).
 */
const EDITS: Readonly<Record<string, readonly string[]>> = {
  update_draft: ['create_invoice', 'create_credit_note'],
  update_customer: ['create_customer'],
  update_product: ['create_product'],
};

function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node as Node)
      .filter(([key, value]) => key !== 'description' || typeof value !== 'string')
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

/** X of `anyOf: [X, {type: "null"}]`. */
function nonNull(schema: Node): Node | undefined {
  const members = schema.anyOf as Node[] | undefined;
  if (!Array.isArray(members) || members.length !== 2) return undefined;
  const value = members.find((member) => member.type !== 'null');
  return members.some((member) => member.type === 'null') ? value : undefined;
}

function editsByPointer(listing: Tool[]): Tool[] {
  const byName = new Map(listing.map((tool) => [tool.name, tool]));
  const same = (a: unknown, b: unknown) =>
    JSON.stringify(withoutDescriptions(a)) === JSON.stringify(withoutDescriptions(b));
  return listing.map((tool) => {
    const makers = EDITS[tool.name];
    if (!makers) return tool;
    const properties = Object.entries(tool.inputSchema.properties ?? {}).map(([name, schema]) => {
      const value = nonNull(schema as Node);
      for (const maker of makers) {
        const made = byName.get(maker)?.inputSchema.properties?.[name];
        if (made && same(value ?? schema, made))
          return [name, { description: `As ${maker}${value ? ' or null' : ''}` }];
      }
      return [name, schema];
    });
    return { ...tool, inputSchema: { ...tool.inputSchema, properties: Object.fromEntries(properties) } };
  });
}

/** `create_invoice` as a client shows a tool without a title: "Create invoice", the title most tools have. */
const humanized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

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
    ...(tool.annotations.title === humanized(tool.name) ? {} : { title: tool.annotations.title }),
    description: tool.description,
    inputSchema: referencedArguments(
      withFieldsInText(
        withoutImpliedTypes(withoutGuards(withCatalogEnums(describeFields(withoutNames(plain(tool.input)))))),
        tool.name,
      ) as Node,
    ) as Tool['inputSchema'],
    outputSchema: referenced(tool.output as Node) as Tool['outputSchema'],
    annotations: hintsOf(tool.annotations),
  }));
  // Shared before nullable values are compacted, so `X or null` in one tool points to X in another.
  return sharedOnce(editsByPointer(listing)).map((tool) => ({
    ...tool,
    inputSchema: {
      ...(compactUnions(tool.inputSchema) as Tool['inputSchema']),
      additionalProperties: false,
    },
  }));
}
