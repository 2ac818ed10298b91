import { IdParamsSchema, ListSchema } from '../schemas/common';
import { defineTool, IdempotencyKeyProperty, ToolInput, withIdempotencyKey, type McpTool } from '../mcp/tool';
import type { RecordAction, RecordResource } from './declaration';
import { RECORDS } from './records';
import { createRecord, listQueryOf, recordContext } from './routes';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
// Saving a record touches only this service (closed world); a create retried makes a second record (not idempotent),
// an update retried changes nothing more.
const save = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

/** Every record tool: for each record, create, list, get, then update or its actions (the listing order). */
export const recordTools = (): McpTool[] => RECORDS.flatMap((record) => toolsOf(record as RecordResource));

function toolsOf(record: RecordResource): McpTool[] {
  const { services, schema } = record;
  const one = (view: never) => record.line(view) as never;
  const idempotent = record.idempotentCreate === true;
  return [
    defineTool({
      name: record.create.tool.name,
      description: record.create.tool.description,
      input: ToolInput({
        ...record.createBody.properties,
        ...(idempotent ? { idempotency_key: IdempotencyKeyProperty } : {}),
      }),
      output: schema,
      // With an idempotency_key a retry answers the first record, so the create is idempotent.
      annotations: { title: record.create.tool.title, ...save, idempotentHint: idempotent },
      async run({ deps, scope }, args) {
        if (!idempotent) return createRecord(deps, scope, record, args, null);
        const { key, body } = withIdempotencyKey(
          args as { idempotency_key: string } & Record<string, unknown>,
        );
        return { ...(await createRecord(deps, scope, record, body, key)), idempotencyKey: key };
      },
      summarize: one,
    }),
    defineTool({
      name: record.list.tool.name,
      description: record.list.tool.description,
      input: ToolInput(record.listQuery.properties),
      output: ListSchema(schema),
      annotations: { title: record.list.tool.title, ...read },
      run: async ({ deps, scope }, args) => ({
        status: 200,
        body: await services.list(recordContext(deps), scope, listQueryOf(args)),
      }),
      summarize: (page: { data: never[]; has_more: boolean }) => listLines(record, page) as never,
    }),
    defineTool({
      name: record.retrieve.tool.name,
      description: record.retrieve.tool.description,
      input: ToolInput({ id: IdParamsSchema.properties.id }),
      output: schema,
      annotations: { title: record.retrieve.tool.title, ...read },
      run: async ({ deps, scope }, args) => ({
        status: 200,
        body: await services.retrieve(recordContext(deps), scope, args.id),
      }),
      summarize: one,
    }),
    ...updateTool(record),
    ...(record.actions ?? []).map((action) => actionTool(record, action)),
  ];
}

function updateTool(record: RecordResource): McpTool[] {
  const { update, updateBody, services } = record;
  if (!update || !updateBody || !services.update) return [];
  const change = services.update;
  return [
    defineTool({
      name: update.tool.name,
      description: update.tool.description,
      input: ToolInput({ id: IdParamsSchema.properties.id, ...updateBody.properties }),
      output: record.schema,
      annotations: { title: update.tool.title, ...save, idempotentHint: true },
      run: async ({ deps, scope }, args) => {
        const { id, ...body } = args as { id: string } & Record<string, unknown>;
        return { status: 200, body: await change(recordContext(deps), scope, id, body as never) };
      },
      summarize: (view: never) => record.line(view) as never,
    }),
  ];
}

// An action changes a status once: repeating it is refused (409), never applied twice.
function actionTool(record: RecordResource, action: RecordAction<unknown>): McpTool {
  return defineTool({
    name: action.tool.name,
    description: action.tool.description,
    input: ToolInput({ id: IdParamsSchema.properties.id }),
    output: record.schema,
    annotations: { title: action.tool.title, ...save, destructiveHint: true, idempotentHint: true },
    run: async ({ deps, scope }, args) => ({
      status: 200,
      body: await action.run(recordContext(deps), scope, args.id),
    }),
    summarize: (view: never) => record.line(view) as never,
  });
}

function listLines(record: RecordResource, page: { data: never[]; has_more: boolean }): string {
  if (!page.data.length) return `No ${record.tag} match.`;
  const lines = page.data.map((view) => `- ${record.line(view)}`).join('\n');
  const last = (page.data.at(-1) as unknown as { id: string }).id;
  const more = page.has_more ? `\nMore exist: call again with starting_after=${last}.` : '';
  return `${page.data.length} ${record.tag}, newest first:\n${lines}${more}`;
}
