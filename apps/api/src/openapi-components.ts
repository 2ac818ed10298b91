import { isDeepStrictEqual } from 'node:util';
import type { TSchema } from '@sinclair/typebox';

/**
 * The keyword that names a schema in the OpenAPI document. Not `$id`: a route schema with a nested `$id` would become
 * a separate resource for ajv and fast-json-stringify (validation, serialization and the MCP tools share these
 * schemas), while an `x-` keyword is ignored by both (`strict: false`) and only read here.
 */
const NAME = 'x-component';

/** The description each named schema was declared with (a use may add its own, see hoistNamedSchemas). */
const declaredDescriptions = new Map<string, string | undefined>();

/** Names a schema: the document lists it once under `components.schemas.<name>` and refers to it everywhere else. */
export const named = <T extends TSchema>(name: string, schema: T): T => {
  declaredDescriptions.set(name, schema.description);
  return Object.assign(schema, { [NAME]: name });
};

type Node = Record<string, unknown>;

/**
 * Moves every named schema of the document (request bodies, responses, and the schemas nested in them) to
 * `components.schemas` and puts a `$ref` in its place. A use that gives the schema a description of its own (a copy
 * such as `{...PriceTierSchema, description}`) keeps it beside the `$ref`, as OpenAPI 3.1 allows. Two schemas that
 * differ otherwise under one name are a mistake in the route schemas, reported when the document is built.
 */
export function hoistNamedSchemas(document: Node): Node {
  const components = ((document.components ??= {}) as Node).schemas as Record<string, unknown> | undefined;
  const schemas: Record<string, unknown> = { ...components };
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (typeof node !== 'object' || node === null) return node;
    const { [NAME]: name, ...rest } = node as Node;
    const walked = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, hoist(value)]));
    if (typeof name !== 'string') return walked;
    const { description, ...content } = walked;
    const declared = declaredDescriptions.get(name);
    const component = declared === undefined ? content : { ...content, description: declared };
    if (name in schemas && !isDeepStrictEqual(schemas[name], component))
      throw new Error(`two different schemas are named ${name} in the OpenAPI document`);
    schemas[name] = component;
    const ref = `#/components/schemas/${name}`;
    return description === undefined || description === declared ? { $ref: ref } : { $ref: ref, description };
  };
  const paths = hoist(document.paths);
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths, components: { ...(document.components as Node), schemas: sorted } };
}

/** The component name a schema was given with `named`, if any. */
export const componentNameOf = (schema: unknown): string | undefined => {
  const name = (schema as Node | undefined)?.[NAME];
  return typeof name === 'string' ? name : undefined;
};

/** A schema without the naming keyword, for listings that inline everything (the MCP tools). */
export function withoutNames(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNames);
  if (typeof node !== 'object' || node === null) return node;
  const { [NAME]: _name, ...rest } = node as Node;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNames(value)]));
}
