/**
 * /api/mcp: the Model Context Protocol endpoint, Streamable HTTP transport (MCP specification),
 * served inside this Next route handler by the SDK's web-standard transport (lib/mcp/http.ts):
 * POST carries one JSON-RPC message and is answered with JSON. Stateless, so there is no
 * server-to-client stream and no session: GET and DELETE answer 405, as the specification
 * allows. Tools: lib/mcp/server.ts; docs/app.md "MCP".
 */
import { handleMcpRequest } from '../../../lib/mcp/http';
import { handle, json, runtime } from '../../_lib/http';
import { mcpReads } from '../../_lib/mcp-reads';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(() => handleMcpRequest(req, mcpReads(runtime())));
}

const notOffered = () =>
  json(
    {
      error:
        'this MCP server is stateless: POST JSON-RPC messages to /api/mcp (no server-to-client stream, no sessions)',
    },
    405,
    { allow: 'POST' },
  );

export async function GET(): Promise<Response> {
  return notOffered();
}

export async function DELETE(): Promise<Response> {
  return notOffered();
}
