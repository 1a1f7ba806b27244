/**
 * GET /api/search?q=&limit=: agents (hex or base58), conversations, envelopes, batches
 * (`agent epoch`), challenges and transactions matching the query or a prefix of their id,
 * grouped by kind; `direct` is the page of the one exact hit.
 */
import { SearchQuerySchema } from '../../../lib/wire';
import { handle, json, parseQuery, runtime } from '../../_lib/http';
import { runSearch } from '../../_lib/search';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, SearchQuerySchema);
    return json(await runSearch(runtime(), p.q, p.limit));
  });
}
