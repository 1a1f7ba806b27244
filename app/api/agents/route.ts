/** GET /api/agents: every agent the observatory has seen, with online state. */
import { handle, json, runtime } from '../../_lib/http';
import { loadAgents } from '../../_lib/data';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => json({ agents: await loadAgents(runtime()) }));
}
