/** GET /api/disputes/{id}: one DISPUTE with its conversation's evidence in order and the reviewers' signed opinions. */
import { NoQuerySchema } from '../../../../lib/wire';
import { loadDispute } from '../../../_lib/disputes';
import { handle, json, parseQuery, runtime } from '../../../_lib/http';
import { hexPathId } from '../../../_lib/path-id';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = Buffer.from(await hexPathId(ctx, 32, 'DISPUTE envelope id')).toString('hex');
    parseQuery(req.url, NoQuerySchema);
    const d = await loadDispute(runtime(), id);
    if (!d) return json({ error: `no DISPUTE envelope ${id} is stored` }, 404);
    return json(d);
  });
}
