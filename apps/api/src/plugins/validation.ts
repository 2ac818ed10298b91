import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { FieldError } from '@cfdi/services';
import { arrayLimitCheck } from './array-limits';

/**
 * Bodies are validated strictly (no type coercion, unknown fields rejected by the schemas); query strings and
 * path params are coerced from text. Every error is collected so the 400 lists each invalid field.
 */
export function installValidators(app: FastifyInstance): void {
  const strict = addFormats(
    new Ajv({
      allErrors: true,
      coerceTypes: false,
      useDefaults: true,
      removeAdditional: false,
      strict: false,
    }),
  );
  const coercing = addFormats(
    new Ajv({
      allErrors: true,
      coerceTypes: 'array',
      useDefaults: true,
      removeAdditional: false,
      strict: false,
    }),
  );
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? strict : coercing).compile(schema);
    const oversized = arrayLimitCheck(schema);
    if (!oversized) return validate;
    // Arrays past their maxItems are refused before the item-by-item walk (see array-limits.ts).
    const guarded = (data: unknown) => {
      const errors = oversized(data);
      guarded.errors = errors.length ? errors : null;
      if (errors.length) return false;
      const valid = validate(data);
      guarded.errors = validate.errors ?? null;
      return valid;
    };
    guarded.errors = null as ErrorObject[] | null;
    return guarded;
  });
}

/** Maps ajv errors to one `{path, message}` per JSON-pointer path of the request part. */
export function toFieldErrors(errors: ErrorObject[]): FieldError[] {
  const byPath = new Map<string, string>();
  // A union of literals fails once per literal: the message lists them all, not just the first.
  const literalsByPath = new Map<string, unknown[]>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    let path = error.instancePath;
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'required') {
      path += `/${(error.params as { missingProperty: string }).missingProperty}`;
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      path += `/${(error.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not an accepted field';
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (error.keyword === 'const') {
      const allowed = (error.params as { allowedValue: unknown }).allowedValue;
      literalsByPath.set(path || '/', [...(literalsByPath.get(path || '/') ?? []), allowed]);
      message = `must be ${JSON.stringify(allowed)}`;
    } else if (error.keyword === 'anyOf' && byPath.has(path || '/')) {
      continue;
    }
    const key = path || '/';
    if (!byPath.has(key)) byPath.set(key, message);
  }
  for (const [path, literals] of literalsByPath) {
    if (literals.length > 1) byPath.set(path, `must be one of: ${literals.map((l) => String(l)).join(', ')}`);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}
