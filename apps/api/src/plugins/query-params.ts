import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError, type FieldError } from '@cfdi/services';

/** What a route's querystring schema accepts: which names (null: any name) and which of them may repeat. */
interface QueryShape {
  names: Set<string> | null;
  repeatable: Set<string>;
}

type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  patternProperties?: unknown;
  additionalProperties?: unknown;
  allOf?: Schema[];
  anyOf?: Schema[];
};

const isArraySchema = (schema: Schema | undefined): boolean =>
  schema?.type === 'array' || (schema?.anyOf ?? []).some(isArraySchema);

function shapeOf(schema: Schema): QueryShape {
  const shape: QueryShape = { names: new Set(), repeatable: new Set() };
  for (const part of [schema, ...(schema.allOf ?? [])]) {
    // A record of any names (the OAuth authorization request) is open; TypeBox objects list their parameters.
    if (part.patternProperties || (part.additionalProperties && part.additionalProperties !== false))
      shape.names = null;
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      shape.names?.add(name);
      if (isArraySchema(property)) shape.repeatable.add(name);
    }
  }
  return shape;
}

const shapes = new WeakMap<object, QueryShape>();
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * One check of every query string, before schema validation and any handler: a parameter the route does not
 * declare, or a single-valued one given twice (`?status=a&status=b` parses to an array), is a 400 with its path.
 * Without it an undeclared parameter reached the handler unchecked (a repeated `invoiceId` became an array and
 * a 500 from the database), and a repeated declared one was reported as "must be string".
 */
export function installQueryParamCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const schema = request.routeOptions.schema?.querystring as Schema | undefined;
    const query = request.query as Record<string, unknown> | undefined;
    // Routes without a querystring schema never read the query.
    if (!schema || !query || typeof query !== 'object') return;
    let shape = shapes.get(schema);
    if (!shape) shapes.set(schema, (shape = shapeOf(schema)));
    const found: FieldError[] = [];
    for (const [name, value] of Object.entries(query)) {
      const path = `/${pointer(name)}`;
      if (shape.names && !shape.names.has(name))
        found.push({ path, message: 'is not an accepted query parameter' });
      else if (Array.isArray(value) && !shape.repeatable.has(name))
        found.push({ path, message: `must be given once (it was given ${value.length} times)` });
    }
    if (found.length)
      throw new ValidationError(
        `The querystring is invalid: ${found.map((e) => `${e.path} ${e.message}`).join('; ')}`,
        found,
      );
  });
}
