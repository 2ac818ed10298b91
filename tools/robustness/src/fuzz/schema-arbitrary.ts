import fc from 'fast-check';
import { hostileNumber, hostileString, wrongKind } from './hostile';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
}

/** Numbers inside the bounds, on them, and just past them (the ± one-step neighbours of each limit). */
function numbers(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : -1e6);
  const max = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : 1e6);
  const step = integer ? 1 : Math.max(Math.abs(max) * 1e-9, 0.01);
  const edges = [min, max, min - step, max + step, max * 10];
  const inside = integer
    ? fc.integer({ min: Math.max(Math.ceil(min), -(2 ** 31)), max: Math.min(Math.floor(max), 2 ** 31 - 1) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.oneof(
    { weight: 6, arbitrary: inside },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 1, arbitrary: hostileNumber },
  );
}

function strings(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  let valid: fc.Arbitrary<string>;
  try {
    valid = schema.pattern
      ? fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 1000))
      : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 300) });
  } catch {
    valid = fc.string({ maxLength: 40 });
  }
  const edges =
    schema.maxLength !== undefined
      ? [fc.constant('x'.repeat(schema.maxLength)), fc.constant('x'.repeat(schema.maxLength + 1))]
      : [];
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: hostileString },
    ...edges.map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}

/**
 * An arbitrary for a JSON schema (the subset TypeBox writes into the OpenAPI document): mostly valid values so
 * requests get past the schema into the services, with hostile values, limits, wrong kinds and unknown fields mixed
 * in so the refusals are exercised too. `depth` bounds recursion.
 */
export function fromSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 12, arbitrary: validish(schema, depth) }, { weight: 1, arbitrary: wrongKind });
}

function validish(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => fromSchema(s, depth + 1)));
  if (schema.allOf) {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf) {
      Object.assign(merged.properties!, part.properties);
      merged.required!.push(...(part.required ?? []));
    }
    return validish(merged, depth);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return strings(schema);
    case 'number':
      return numbers(schema, false);
    case 'integer':
      return numbers(schema, true);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4 || !schema.items) return fc.constant([]);
      return fc.array(fromSchema(schema.items, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    }
    case 'object': {
      if (depth > 5) return fc.constant({});
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, s]) => [name, fromSchema(s, depth + 1)]),
      );
      const record = fc.record(properties, {
        requiredKeys: (schema.required ?? []).filter((k) => k in properties),
      });
      // Now and then a field no schema has, or a required one missing (fc.record already omits optional ones).
      return fc.oneof(
        { weight: 10, arbitrary: record },
        { weight: 1, arbitrary: record.map((r) => ({ ...r, unknownField: 1 })) },
        { weight: 1, arbitrary: fc.constant({}) },
      );
    }
    default:
      return wrongKind;
  }
}
