import { updateDraftOf, stampDraftOf } from '../operations/drafts';
import { IdParamsSchema } from '../schemas/common';
import { DraftPatchSchema } from '../schemas/documents';
import { defineTool, ToolInput, type McpTool } from '../mcp/tool';
import { stampingTool } from '../mcp/stamping-tool';
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
    stampingTool({
      name: texts.stamp.tool.name,
      description: texts.stamp.tool.description,
      title: texts.stamp.tool.title,
      input: { id: IdParamsSchema.properties.id },
      document: schema,
      run: ({ deps, scope, log }, body, key) =>
        stampDraftOf(deps, scope, resource.path, body.id as string, key, log),
    }),
  ];
}
