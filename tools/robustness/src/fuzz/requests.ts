import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { HOSTILE_SEGMENTS, RAW_BODIES } from './hostile';
import { fromSchema, type JsonSchema } from './schema-arbitrary';

export interface FuzzRequest {
  method: string;
  /** The route as the OpenAPI document names it, e.g. /v1/invoices/{id}. */
  route: string;
  /** The path actually requested (segments already percent-encoded, or deliberately broken). */
  path: string;
  query: Record<string, string>;
  body?: unknown;
  /** One of RAW_BODIES by name, instead of `body`. */
  rawBody?: string;
  auth: 'key' | 'none' | 'bad';
  idempotencyKey?: string;
}

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}

/** Ids of real resources of the fuzzing account, so generated requests reach code past the 404s. */
export interface KnownIds {
  [param: string]: string[];
}

/** A lone surrogate cannot be percent-encoded as UTF-8: it is sent as the invalid bytes it would be. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function pathArbitrary(
  route: string,
  params: Operation['parameters'],
  known: KnownIds,
): fc.Arbitrary<string> {
  const names = [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (!names.length) return fc.constant(route);
  const segments = names.map((name) => {
    const schema = params?.find((p) => p.in === 'path' && p.name === name)?.schema ?? { type: 'string' };
    const ids = Object.values(known).flat();
    return fc.oneof(
      { weight: 4, arbitrary: ids.length ? fc.constantFrom(...ids) : fc.constant('none') },
      { weight: 2, arbitrary: fromSchema(schema).map((v) => encodeSegment(String(v))) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    );
  });
  return fc
    .tuple(...segments)
    .map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), route));
}

const idempotencyKeys = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined).map(() => `fz-${randomBytes(8).toString('hex')}`) },
  { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(256), 'reused-key-1', 'ñ', ' ') },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Every request the OpenAPI document describes, with schema-shaped, boundary and hostile values. */
export function requestArbitrary(
  openapi: { paths: Record<string, Record<string, Operation>> },
  known: KnownIds,
): fc.Arbitrary<FuzzRequest> {
  const operations: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [route, methods] of Object.entries(openapi.paths)) {
    if (route.includes('*') || route.startsWith('/files')) continue;
    for (const [method, operation] of Object.entries(methods)) {
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const query = fc.record(
        Object.fromEntries(
          queryParams.map((p) => [
            p.name,
            fromSchema(p.schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
          ]),
        ),
        { requiredKeys: [] },
      );
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const body = bodySchema
        ? fc.oneof(
            { weight: 12, arbitrary: fromSchema(bodySchema).map((b) => ({ body: b })) },
            { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES.map((r) => ({ rawBody: r.name }))) },
          )
        : fc.constant({});
      operations.push(
        fc
          .record({
            path: pathArbitrary(route, operation.parameters, known),
            query,
            body,
            auth: fc.constantFrom<FuzzRequest['auth']>(
              'key',
              'key',
              'key',
              'key',
              'key',
              'key',
              'none',
              'bad',
            ),
            idempotencyKey: idempotencyKeys,
          })
          .map(
            ({ body: b, ...rest }) => ({ method: method.toUpperCase(), route, ...rest, ...b }) as FuzzRequest,
          ),
      );
    }
  }
  return fc.oneof(...operations);
}

/** The request as a reader can replay it (the minimal failing one is printed this way). */
export function describeRequest(request: FuzzRequest): string {
  const query = new URLSearchParams(request.query).toString();
  const body = request.rawBody
    ? `<raw: ${request.rawBody}>`
    : request.body === undefined
      ? ''
      : JSON.stringify(request.body);
  return `${request.method} ${request.path}${query ? `?${query}` : ''} auth=${request.auth}${request.idempotencyKey !== undefined ? ` idempotency-key=${JSON.stringify(request.idempotencyKey)}` : ''}${body ? `\n  body: ${body.length > 2000 ? `${body.slice(0, 2000)}… (${body.length} chars)` : body}` : ''}`;
}

export function rawBodyOf(name: string): Buffer | string {
  return RAW_BODIES.find((r) => r.name === name)!.body();
}
