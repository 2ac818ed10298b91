import type { TProperties, TSchema } from '@sinclair/typebox';
import type { Answer } from '../operations/idempotent';
import { StampingSchema } from '../schemas/documents';
import {
  defineTool,
  IdempotencyKeyProperty,
  OneOfShapes,
  ToolInput,
  withIdempotencyKey,
  type McpTool,
  type ToolContext,
} from './tool';
import { documentSummary } from './tools/summaries';

/**
 * A tool that stamps: it answers the stamped document (201) or, while the PAC is slow, the stamping shape (202).
 * It reaches the SAT (open world) and takes an `idempotency_key`, so a retry answers the same document (idempotent);
 * `keyed: false` where the request is its own key (a period's global invoice).
 */
export function stampingTool(tool: {
  name: string;
  description: string;
  title: string;
  input: TProperties;
  document: TSchema;
  keyed?: boolean;
  run(ctx: ToolContext, body: Record<string, unknown>, key: string): Promise<Answer>;
}): McpTool {
  const keyed = tool.keyed ?? true;
  return defineTool({
    name: tool.name,
    description: tool.description,
    input: ToolInput(keyed ? { ...tool.input, idempotency_key: IdempotencyKeyProperty } : tool.input),
    output: OneOfShapes(tool.document, StampingSchema),
    shapeOf: (status) => (status === 202 ? StampingSchema : tool.document),
    annotations: {
      title: tool.title,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    async run(ctx, args) {
      if (!keyed) return tool.run(ctx, args as Record<string, unknown>, '');
      const { key, body } = withIdempotencyKey(args as { idempotency_key: string } & Record<string, unknown>);
      return { ...(await tool.run(ctx, body, key)), idempotencyKey: key };
    },
    summarize: documentSummary,
  });
}
