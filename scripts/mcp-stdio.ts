/**
 * `npm run mcp [-- URL]`: the observatory's MCP server on stdio, for clients that start their
 * servers as child processes. It does not open the database itself: it connects to a running
 * observatory's Streamable HTTP endpoint (URL, default http://127.0.0.1:3000; `/api/mcp` is
 * appended unless the URL has a path) with the SDK's client and forwards tools/list and
 * tools/call, so stdio and HTTP clients see the same tools answering from the same data.
 * Nothing but MCP messages goes to stdout; diagnostics go to stderr.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

function endpoint(arg: string | undefined): URL {
  const raw = arg ?? 'http://127.0.0.1:3000';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    console.error(`mcp: "${raw}" is not a URL (expected e.g. http://127.0.0.1:3000)`);
    process.exit(2);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    console.error(`mcp: "${raw}" must be an http or https URL`);
    process.exit(2);
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/api/mcp';
  return url;
}

async function main(): Promise<void> {
  const url = endpoint(process.argv[2]);
  const upstream = new Client({ name: 'zerox1-observatory-stdio', version: '1' });
  try {
    await upstream.connect(new StreamableHTTPClientTransport(url));
  } catch (e) {
    console.error(
      `mcp: cannot reach the observatory at ${url.href} (is \`npm ` +
        `start\` running?): ${e instanceof Error ? e.message : e}`,
    );
    process.exit(1);
  }
  const info = upstream.getServerVersion();
  const server = new Server(
    { name: info?.name ?? 'zerox1-observatory', version: info?.version ?? '1' },
    { capabilities: { tools: {} }, instructions: upstream.getInstructions() },
  );
  server.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params));
  server.setRequestHandler(CallToolRequestSchema, (req) => upstream.callTool(req.params));
  server.onclose = () => void upstream.close().finally(() => process.exit(0));
  await server.connect(new StdioServerTransport());
  console.error(`mcp: stdio bridged to ${url.href}`);
}

main().catch((e: unknown) => {
  console.error('mcp: failed', e);
  process.exit(1);
});
