import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An MCP client of the SDK connected (initialized) to `baseUrl + path` with a bearer credential. */
export async function connectMcp(baseUrl: string, path: string, bearer: string): Promise<Client> {
  const client = new Client({ name: 'cfdi-test-agent', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(baseUrl + path), {
    requestInit: { headers: { authorization: `Bearer ${bearer}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result, with the problem of an `isError` result parsed from its text. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return {
    result,
    text,
    data: result.structuredContent as any,
    problem: result.isError ? JSON.parse(text) : undefined,
  };
}

/** MCP's defaults for the hints a listing leaves out. */
export const hints = (tool: { annotations?: Record<string, unknown> }) => ({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
  ...tool.annotations,
});
