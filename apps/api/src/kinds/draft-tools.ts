import { updateDraftOf, stampDraftOf } from '../operations/drafts';
import { IdParamsSchema } from '../schemas/common';
import { DraftPatchSchema, StampingSchema } from '../schemas/documents';
import {
  defineTool,
  IdempotencyKeyProperty,
  OneOfShapes,
  ToolInput,
  withIdempotencyKey,
  type McpTool,
} from '../mcp/tool';
import { documentSummary } from '../mcp/tools/summaries';
import type { DocumentResource, DraftFaces } from './declaration';

/** The draft tools of a resource with drafts: edit (free) and stamp (one timbre, under an idempotency_key). */
export function draftTools(resource: DocumentResource, texts: DraftFaces): McpTool[] {
  const { schema } = resource;
  return [
    defineTool({
      name: texts.update.tool.name,
      description: texts.update.tool.description,
      input: ToolInput({ id: IdParamsSchema.properties.id, ...DraftPatchSchema.properties }),
      output: schema,
      // Editing a draft reaches nobody and a repeated edit is the same draft.
      annotations: {
        title: texts.update.tool.title,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      async run({ deps, scope }, args) {
        const { id, ...patch } = args as { id: string } & Record<string, unknown>;
        return { status: 200, body: await updateDraftOf(deps, scope, id, patch) };
      },
      summarize: documentSummary,
    }),
    defineTool({
      name: texts.stamp.tool.name,
      description: texts.stamp.tool.description,
      input: ToolInput({ id: IdParamsSchema.properties.id, idempotency_key: IdempotencyKeyProperty }),
      output: OneOfShapes(schema, StampingSchema),
      shapeOf: (status) => (status === 202 ? StampingSchema : schema),
      annotations: {
        title: texts.stamp.tool.title,
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
      async run({ deps, scope, log }, args) {
        const { key, body } = withIdempotencyKey(args as { idempotency_key: string; id: string });
        const answer = await stampDraftOf(deps, scope, resource.path, body.id as string, key, log);
        return { ...answer, idempotencyKey: key };
      },
      summarize: documentSummary,
    }),
  ];
}
