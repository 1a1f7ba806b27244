/**
 * GET /api/envelopes/{id}/inclusion: for each uploaded epoch log that holds the envelope, its log
 * entry and merkle proof (docs/protocol.md §5). The browser folds the proof and compares it with
 * the BatchAccount it reads from the chain itself.
 */
import { handle, json, runtime } from '../../../../_lib/http';
import { hexPathId } from '../../../../_lib/path-id';
import { loadInclusion } from '../../../../_lib/verify';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = await hexPathId(ctx, 32, 'envelope id');
    const v = await loadInclusion(runtime(), id);
    return v ? json(v) : json({ error: `envelope ${Buffer.from(id).toString('hex')} not found` }, 404);
  });
}
