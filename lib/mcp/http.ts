/**
 * The MCP Streamable HTTP transport (MCP specification) for one request, with the SDK's
 * web-standard transport, so a Next route handler can serve it (Request in, Response out; no
 * Node req/res needed). Stateless: a fresh server per request over `reads`, JSON answers (no
 * SSE stream is held open), nothing kept between calls, so any process can answer any call.
 */
import * as streamableHttp from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer, type McpReads } from './server';

/** A JSON-RPC message is small; a tool call with its arguments fits in far less. */
export const MAX_MCP_BODY = 64 * 1024;

export async function handleMcpRequest(req: Request, reads: McpReads): Promise<Response> {
  const server = createMcpServer(reads);
  const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_MCP_BODY,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close().catch(() => undefined);
  }
}
