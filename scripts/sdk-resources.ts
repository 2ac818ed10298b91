// The SDK's resource methods, generated from the OpenAPI document by `npm run sdk:generate` (scripts/sdk.ts): one
// resource per tag, one method per operation, named from the operationId, so a new route (customers, products…)
// gets its method by regenerating, not by hand.
//
// The resource is named after the longest run of words, starting with the tag's noun, that every operationId of the
// tag contains ("webhooks": createWebhookEndpoint, listWebhookEndpoints… → `webhookEndpoints`); the method is the
// operationId without that noun (createInvoice → `invoices.create`, sendInvoiceEmail → `invoices.sendEmail`).

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean };
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** Routes the SDK leaves out: signed file URLs are fetched with `cfdi.download(url)`, probes are for operators. */
const SKIPPED_TAGS = new Set(['meta', 'files']);

const words = (identifier: string) => identifier.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
const pascal = (parts: string[]) => parts.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
const camel = (parts: string[]) => {
  const text = pascal(parts);
  return text[0]!.toLowerCase() + text.slice(1);
};
const singular = (word: string) => word.replace(/s$/, '');

/** The words after the verb (`createWebhookEndpoint` → Webhook, Endpoint), and where `run` starts among them. */
const nounWords = (operationId: string) =>
  words(operationId)
    .slice(1)
    .map((w) => pascal([w]));
const indexOfRun = (ws: string[], run: string[]) =>
  ws.findIndex((_, i) => run.every((w, j) => singular(ws[i + j] ?? '') === w));

/**
 * The resource's noun: the tag's, singular, grown while every operation names the longer run; null when no operation
 * names it (billing, catalogs: the methods keep their whole names).
 */
function resourceNoun(tag: string, operationIds: string[]): string[] | null {
  let noun = tag.split(/[\s_-]+/).map((w) => singular(pascal([w])));
  const namedBy = (id: string, run: string[]) => indexOfRun(nounWords(id), run) >= 0;
  if (!operationIds.some((id) => namedBy(id, noun))) return null;
  if (!operationIds.every((id) => namedBy(id, noun))) return noun;
  for (;;) {
    const first = nounWords(operationIds[0]!);
    const next = first[indexOfRun(first, noun) + noun.length];
    if (!next || !operationIds.every((id) => namedBy(id, [...noun, singular(next)]))) return noun;
    noun = [...noun, singular(next)];
  }
}

function methodName(operationId: string, noun: string[] | null): string {
  const [verb = ''] = words(operationId);
  const rest = nounWords(operationId);
  const at = noun ? indexOfRun(rest, noun) : -1;
  if (at >= 0) rest.splice(at, noun!.length);
  return camel([verb, ...rest]);
}

/** A success answer with no declared shape is a file (a PDF preview): the method returns its bytes. */
function returnsBytes(operation: Operation): boolean {
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
  const schema = success?.content?.['application/json']?.schema ?? {};
  return !['type', '$ref', 'properties', 'anyOf', 'oneOf', 'allOf'].some((key) => key in schema);
}

export function generateResources(document: Document): string {
  const byTag = new Map<string, { path: string; method: string; operation: Operation }[]>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0];
      if (!tag || SKIPPED_TAGS.has(tag)) continue;
      byTag.set(tag, [...(byTag.get(tag) ?? []), { path, method: method.toUpperCase(), operation }]);
    }
  const resources: string[] = [];
  for (const [tag, operations] of byTag) {
    const noun = resourceNoun(
      tag,
      operations.map((o) => o.operation.operationId),
    );
    const resource = noun ? camel([...noun.slice(0, -1), `${noun.at(-1)!}s`]) : camel(tag.split(/[\s_-]+/));
    const methods = operations.map(({ path, method, operation }) => {
      const id = operation.operationId;
      const pathNames = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const paged = query.some((p) => p.name === 'starting_after');
      const args = pathNames.map((name) => `${name}: string`);
      const request: string[] = [];
      if (pathNames.length) request.push(`path: { ${pathNames.join(', ')} }`);
      // The API answers a repeated key with the first answer: safe to send again after a network error.
      if ((operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
        request.push('idempotent: true');
      if (operation.requestBody) {
        args.push(`body${operation.requestBody.required ? '' : '?'}: Body<'${id}'>`);
        request.push('body');
      } else if (query.length) {
        args.push(`query${query.some((p) => p.required) ? '' : '?'}: Query<'${id}'>`);
        request.push('query');
      }
      args.push('options?: RequestOptions');
      const call = paged
        ? `transport.list<'${id}'>('${path}', { ${request.join(', ')} }, options)`
        : `transport.request<${returnsBytes(operation) ? 'ArrayBuffer' : `Result<'${id}'>`}>('${method}', '${path}', { ${request.join(', ')} }, options)`;
      const doc = operation.summary
        ? `/** ${operation.summary.replace(/\*\//g, '* /')} (\`${id}\`) */\n`
        : '';
      return `${doc}${methodName(id, noun)}: (${args.join(', ')}) => ${call},`;
    });
    resources.push(`${resource}: {\n${methods.join('\n')}\n},`);
  }
  return `// Generated by \`npm run sdk:generate\` from openapi.json (scripts/sdk-resources.ts); do not edit.
import type { Body, Query, RequestOptions, Result, Transport } from './transport';

/** Every resource of the API and its methods, over one transport (auth, idempotency, retries, errors). */
export function createResources(transport: Transport) {
  return {
${resources.join('\n')}
  };
}

export type Resources = ReturnType<typeof createResources>;
`;
}

/** One named type per component schema of the document (`Invoice`, `InvoiceCreate`, `Problem`…). */
export function generateModels(document: {
  components?: { schemas?: Record<string, { description?: string }> };
}): string {
  const models = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => {
    const doc = schema.description ? `/** ${schema.description.replace(/\*\//g, '* /')} */\n` : '';
    return `${doc}export type ${name} = components['schemas']['${name}'];`;
  });
  return `// Generated by \`npm run sdk:generate\` from openapi.json (scripts/sdk-resources.ts); do not edit.
import type { components } from './schema';

${models.join('\n')}
`;
}
