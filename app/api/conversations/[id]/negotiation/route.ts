/** GET /api/conversations/{id}/negotiation: the flight recorder (offers, analytics, timeline) the page draws. */
import { handle, json, runtime } from '../../../../_lib/http';
import { negotiationView } from '../../../../_lib/negotiation';
import { hexPathId } from '../../../../_lib/path-id';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = await hexPathId(ctx, 16, 'conversation id');
    const c = await runtime().reads.getConversation(id);
    return c ? json(negotiationView(c)) : json({ error: `conversation ${Buffer.from(id).toString('hex')} not found` }, 404);
  });
}
