/**
 * GET /api/envelopes?type=&agent=&conversation=&limit=&before=
 * Newest first. `type` is a msg_type name (PROPOSE) or code (3 / 0x03); `agent` matches sender
 * or recipient (64 hex); `conversation` 32 hex; `limit` 1..500 (default 50); `before` is the
 * `next` cursor of the previous page.
 */
import { z } from 'zod';
import { MsgType } from '../../../lib/protocol/types';
import { handle, json, runtime, parseQuery, q } from '../../_lib/http';
import { loadEnvelopes } from '../../_lib/data';

export const dynamic = 'force-dynamic';

const typeParam = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const upper = s.toUpperCase();
    if (upper in MsgType) return MsgType[upper as keyof typeof MsgType] as number;
    const n = /^0x[0-9a-f]{1,2}$/i.test(s) ? parseInt(s, 16) : /^\d{1,3}$/.test(s) ? Number(s) : NaN;
    if (n >= 1 && n <= 13) return n;
    ctx.addIssue({ code: 'custom', message: `unknown msg_type; use a name (${Object.keys(MsgType).join(', ')}) or a code 1..13` });
    return z.NEVER;
  });

const Query = z.object({
  type: typeParam.optional(),
  agent: q.hex(32, 'agent id').optional(),
  conversation: q.hex(16, 'conversation id').optional(),
  limit: q.int(1, 500).default(50),
  before: z.string().trim().regex(/^\d{1,19}$/, 'must be the decimal cursor from a previous page').optional(),
});

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, Query);
    return json(await loadEnvelopes(runtime(), query));
  });
}
