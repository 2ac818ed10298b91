import { Type } from '@sinclair/typebox';
import { createDocument, listOf, retrieveOf } from '../operations/documents';
import { cancelDocument } from '../operations/cancellations';
import { IdParamsSchema, ListSchema } from '../schemas/common';
import { CancelRequestSchema } from '../schemas/payments';
import { defineTool, IdempotencyKeyProperty, ToolInput, withIdempotencyKey, type McpTool } from '../mcp/tool';
import { stampingTool } from '../mcp/stamping-tool';
import { documentSummary, listSummary } from '../mcp/tools/summaries';
import type { ApiDocumentKind, DocumentResource } from './declaration';
import { draftTools } from './draft-tools';
import { DOCUMENT_FACES } from './kinds';
import { createOperation } from './routes';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
// Writes reach the SAT (open world); every one takes an idempotency_key, so a retry is safe (idempotent).
const write = { readOnlyHint: false, idempotentHint: true, openWorldHint: true };

/** Every document tool: for each resource, its kinds' creates, then get, list and cancel (the listing order). */
export const documentTools = (): McpTool[] =>
  DOCUMENT_FACES.flatMap((face) =>
    face.tools
      ? [
          ...face.kinds.map(createTool),
          ...resourceTools(face.resource),
          ...(face.resource.drafts ? draftTools(face.resource, face.resource.drafts) : []),
        ]
      : [],
  );

function createTool(kind: ApiDocumentKind): McpTool {
  const parent = kind.parentArgument;
  return stampingTool({
    name: kind.create.tool.name,
    description: kind.create.tool.description,
    title: kind.create.tool.title,
    input: {
      ...(parent ? { [parent.name]: Type.String({ minLength: 1, description: parent.description }) } : {}),
      ...kind.body.properties,
    },
    document: kind.resource.schema,
    run({ deps, scope, log }, body, key) {
      const parentId = parent ? (body[parent.name] as string) : undefined;
      if (parent) delete body[parent.name];
      const operation = createOperation(kind, parentId);
      return createDocument(deps, scope, kind.kind, operation, body, key, log, parentId);
    },
  });
}

function resourceTools(resource: DocumentResource): McpTool[] {
  const { schema, retrieve, list, cancel } = resource;
  return [
    defineTool({
      name: retrieve.tool.name,
      description: retrieve.tool.description,
      input: ToolInput({ id: IdParamsSchema.properties.id }),
      output: schema,
      annotations: { title: retrieve.tool.title, ...read },
      run: async ({ deps, scope }, args) => ({
        status: 200,
        body: await retrieveOf(deps, scope, resource.type, args.id),
      }),
      summarize: documentSummary,
    }),
    defineTool({
      name: list.tool.name,
      description: list.tool.description,
      input: ToolInput(resource.listQuery.properties),
      output: ListSchema(schema),
      annotations: { title: list.tool.title, ...read },
      run: async ({ deps, scope }, args) => ({
        status: 200,
        body: await listOf(deps, scope, resource.type, args as never),
      }),
      summarize: (page: never) => listSummary(resource.plural, page),
    }),
    defineTool({
      name: cancel.tool.name,
      description: cancel.tool.description,
      input: ToolInput({
        id: IdParamsSchema.properties.id,
        ...CancelRequestSchema.properties,
        idempotency_key: IdempotencyKeyProperty,
      }),
      output: schema,
      annotations: { title: cancel.tool.title, destructiveHint: true, ...write },
      async run({ deps, scope, log }, args) {
        const {
          key,
          body: { id, ...body },
        } = withIdempotencyKey(args as { idempotency_key: string; id: string } & Record<string, unknown>);
        const answer = await cancelDocument(
          deps,
          scope,
          resource.type as never,
          id as string,
          body as never,
          key,
          log,
        );
        return { ...answer, idempotencyKey: key };
      },
      summarize: documentSummary,
    }),
  ];
}
