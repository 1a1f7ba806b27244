/**
 * GET /api/envelopes?type=&agent=&conversation=&range=&from=&to=&limit=&before=
 * Newest first. `type` is a msg_type name (PROPOSE) or code (3 / 0x03); `agent` matches sender
 * or recipient (64 hex or base58); `conversation` 32 hex; `limit` 1..500 (default 50); `before` is the
 * `next` cursor of the previous page.
 */
import { EnvelopesQuerySchema as Query, TIME_PRESETS } from '../../../lib/wire/params';
import { loadEnvelopes } from '../../_lib/data';
import { agentHexParam, HttpError, handle, json, parseQuery, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, Query);
    if (query.range && (query.from !== undefined || query.to !== undefined))
      throw new HttpError(400, 'query parameter "range": give either range or from/to, not both');
    const fromMs = query.range ? Date.now() - TIME_PRESETS[query.range] : query.from;
    const agent = query.agent === undefined ? undefined : agentHexParam('agent', query.agent);
    return json(await loadEnvelopes(runtime(), { ...query, agent, fromMs, toMs: query.to }));
  });
}
