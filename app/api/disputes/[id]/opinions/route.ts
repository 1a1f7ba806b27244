/**
 * POST /api/disputes/{id}/opinions {reviewer, message, signature}: a reviewer's opinion, signed by
 * their wallet over the canonical text of lib/wire/disputes.ts. The server rebuilds the text,
 * verifies the Ed25519 signature and keeps it as the reviewer's current opinion; every refusal is
 * a 4xx with a sentence (400 malformed, stale or about another dispute, 403 signature, 404 no such
 * dispute, 409 a newer opinion of the reviewer is kept, 413 too large).
 */

import { DisputeOpinionRequestSchema } from '../../../../../lib/wire/disputes';
import { jsonBody } from '../../../../_lib/body';
import { recordOpinion } from '../../../../_lib/disputes';
import { handle, json, runtime } from '../../../../_lib/http';
import { hexPathId } from '../../../../_lib/path-id';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = Buffer.from(await hexPathId(ctx, 32, 'DISPUTE envelope id')).toString('hex');
    const o = runtime();
    const body = await jsonBody(req, DisputeOpinionRequestSchema, {
      cap: 8192,
      example: '{"reviewer": "<base58 wallet address>", "message": "<the signed text>", "signature": "<hex>"}',
    });
    return json(await recordOpinion(o, id, body));
  });
}
