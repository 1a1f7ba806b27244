/**
 * GET /api/replay?from=&to=&after=&limit=
 * A past window's stored envelopes in the store's order (envelope timestamp, then id), as the
 * `message` events of the live stream, one keyset page at a time: pass `next` back as `after`.
 * `from`/`to` unix ms (default: the last five minutes); `limit` 1..1000 (default 200).
 */
import { ReplayQuerySchema as Query, REPLAY_DEFAULT_WINDOW_MS } from '../../../lib/wire/replay';
import { HttpError, handle, json, parseQuery, runtime } from '../../_lib/http';
import { loadReplayPage } from '../../_lib/replay';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const q = parseQuery(req.url, Query);
    const toMs = q.to ?? (q.from !== undefined ? Math.max(q.from, Date.now()) : Date.now());
    const fromMs = q.from ?? Math.max(0, toMs - REPLAY_DEFAULT_WINDOW_MS);
    if (fromMs > toMs) throw new HttpError(400, 'query parameter "from": must be at or before "to"');
    if (
      q.after &&
      (q.after.timestampUs < BigInt(fromMs) * 1000n || q.after.timestampUs > BigInt(toMs) * 1000n + 999n)
    ) {
      throw new HttpError(400, 'query parameter "after": the cursor is outside the window from..to');
    }
    return json(await loadReplayPage(runtime(), { fromMs, toMs, after: q.after, limit: q.limit }));
  });
}
