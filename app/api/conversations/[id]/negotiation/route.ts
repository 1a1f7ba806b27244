/** GET /api/conversations/{id}/negotiation: the flight recorder (offers, analytics, timeline) the page draws. */
import { handle, json, runtime } from '../../../../_lib/http';
import { loadNegotiation } from '../../../../_lib/negotiation';
import { hexPathId } from '../../../../_lib/path-id';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = await hexPathId(ctx, 16, 'conversation id');
    // The same view as the page: role evidence and the Haggle account come from the store too.
    const n = await loadNegotiation(runtime(), id);
    return n ? json(n.view) : json({ error: `conversation ${Buffer.from(id).toString('hex')} not found` }, 404);
  });
}
