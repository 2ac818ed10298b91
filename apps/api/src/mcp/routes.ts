import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError } from '@cfdi/services';
import { countRequest } from '../plugins/auth';
import { problemResponses } from '../schemas/common';
import { authenticateMcp, MCP_ENDPOINTS } from './auth';
import type * as McpServerModule from './server';
import type * as McpTransportModule from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { traceHeaders } from '../plugins/tracing';

// The MCP SDK and zod hold about 10 MB of heap: the first MCP request of a process loads them (with the tool listing
// and its compiled validators), not every API process at start.
let mcpRuntime:
  | {
      buildMcpServer: typeof McpServerModule.buildMcpServer;
      Transport: typeof McpTransportModule.StreamableHTTPServerTransport;
    }
  | undefined;
function loadMcpRuntime(): NonNullable<typeof mcpRuntime> {
  mcpRuntime ??= {
    buildMcpServer: (require('./server') as typeof McpServerModule).buildMcpServer,
    Transport: (require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof McpTransportModule)
      .StreamableHTTPServerTransport,
  };
  return mcpRuntime;
}

/** The q-value a media type gets from an Accept header (exact type, then `type/*`, then `*\/*`). */
function quality(accept: string, mediaType: string): number {
  const [type] = mediaType.split('/');
  let best = -1;
  let specificity = -1;
  for (const range of accept.split(',')) {
    const [name = '', ...params] = range.trim().toLowerCase().split(';');
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? 1,
    );
    const level = name === mediaType ? 2 : name === `${type}/*` ? 1 : name === '*/*' ? 0 : -1;
    if (level > specificity) {
      specificity = level;
      best = Number.isFinite(q) ? q : 0;
    }
  }
  return Math.max(best, 0);
}

/**
 * Streamable HTTP lets the server answer a POST with JSON or with an SSE stream. A client that accepts only one
 * gets that one; one that accepts both gets JSON unless it ranks `text/event-stream` higher (q-values).
 * Null when it accepts neither (the transport answers 406).
 */
export function responseStyle(accept: string | undefined): 'json' | 'sse' | null {
  const json = quality(accept ?? '*/*', 'application/json');
  const sse = quality(accept ?? '*/*', 'text/event-stream');
  if (json === 0 && sse === 0) return null;
  return json >= sse ? 'json' : 'sse';
}

const METHOD_NOT_ALLOWED = new AppError(
  405,
  'method_not_allowed',
  'Method not allowed',
  'This MCP server is stateless: send JSON-RPC messages with POST; there is no session stream to GET or session to DELETE.',
);

export const mcpRoutes: FastifyPluginAsync = async (app) => {
  for (const endpoint of MCP_ENDPOINTS) {
    const mode = endpoint.livemode ? 'live' : 'test';
    app.post(
      endpoint.path,
      {
        schema: {
          tags: ['mcp'],
          summary: `MCP tool server (${mode} mode)`,
          description:
            `Model Context Protocol over Streamable HTTP (stateless) for AI agents, ${mode} mode: JSON-RPC messages ` +
            `(initialize, tools/list, tools/call). Authenticate with an sk_${mode}_ API key or an OAuth access token issued for this ` +
            'endpoint; a 401 carries WWW-Authenticate with the protected resource metadata.',
          operationId: endpoint.livemode ? 'callMcpLive' : 'callMcpTest',
          body: Type.Unknown({ description: 'A JSON-RPC 2.0 message or batch' }),
          response: {
            200: Type.Unknown({
              description: 'JSON-RPC response(s), as application/json or text/event-stream',
            }),
            ...problemResponses(413),
          },
        },
      },
      async (request, reply) => {
        const { scope, rateLimitPerMinute, canWrite } = await authenticateMcp(app, request, endpoint);
        const { headers, refusal } = await countRequest(app, scope.accountId, rateLimitPerMinute);
        const style = responseStyle(request.headers.accept);
        // The SDK transport insists on both types in Accept; the choice made above is passed as enableJsonResponse.
        if (style) request.raw.headers.accept = 'application/json, text/event-stream';

        const { buildMcpServer, Transport } = loadMcpRuntime();
        const server = buildMcpServer({
          deps: app.deps,
          scope,
          log: request.log,
          docsUrl: app.deps.config.api.docsUrl,
          rateLimited: refusal,
          canWrite,
        });
        const transport = new Transport({
          sessionIdGenerator: undefined,
          enableJsonResponse: style === 'json',
        });
        reply.hijack();
        for (const [name, value] of Object.entries({
          ...headers,
          'x-request-id': request.id,
          ...traceHeaders(),
        }))
          reply.raw.setHeader(name, value);
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );

    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: endpoint.path,
        schema: {
          tags: ['mcp'],
          summary: `No session stream (${mode} mode)`,
          description: 'The tool server keeps no session: 405 with `Allow: POST`.',
          operationId: `${method === 'GET' ? 'stream' : 'close'}Mcp${endpoint.livemode ? 'Live' : 'Test'}Session`,
          response: problemResponses(405),
        },
        handler: async (_request, reply) => {
          reply.header('allow', 'POST');
          throw METHOD_NOT_ALLOWED;
        },
      });
    }
  }
};
