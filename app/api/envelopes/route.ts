/**
 * GET /api/envelopes?type=&agent=&conversation=&limit=&before=
 * Newest first. `type` is a msg_type name (PROPOSE) or code (3 / 0x03); `agent` matches sender
 * or recipient (64 hex); `conversation` 32 hex; `limit` 1..500 (default 50); `before` is the
 * `next` cursor of the previous page.
 */
import { EnvelopesQuerySchema as Query } from '../../../lib/wire/params';
import { handle, json, runtime, parseQuery } from '../../_lib/http';
import { loadEnvelopes } from '../../_lib/data';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, Query);
    return json(await loadEnvelopes(runtime(), query));
  });
}
