/** GET /api/envelopes/{id}/raw: the envelope's bytes as stored (hex), for the browser to verify itself. */
import { handle, json, runtime } from '../../../../_lib/http';
import { hexPathId } from '../../../../_lib/path-id';
import { loadEnvelopeRaw } from '../../../../_lib/verify';

export const dynamic = 'force-dynamic';

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = await hexPathId(ctx, 32, 'envelope id');
    const raw = await loadEnvelopeRaw(runtime(), id);
    return raw ? json(raw) : json({ error: `envelope ${Buffer.from(id).toString('hex')} not found` }, 404);
  });
}
