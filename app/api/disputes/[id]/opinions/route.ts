/**
 * POST /api/disputes/{id}/opinions {reviewer, message, signature}: a reviewer's opinion, signed by
 * their wallet over the canonical text of lib/wire/disputes.ts. The server rebuilds the text,
 * verifies the Ed25519 signature and keeps it as the reviewer's current opinion; every refusal is
 * a 4xx with a sentence (400 malformed, stale or about another dispute, 403 signature, 404 no such
 * dispute, 409 a newer opinion of the reviewer is kept, 413 too large).
 */
import { readUpload } from '../../../../_lib/body';
import { handle, json, problem, runtime } from '../../../../_lib/http';
import { hexPathId } from '../../../../_lib/path-id';
import { recordOpinion } from '../../../../_lib/disputes';
import { jsonTextProblem } from '../../../../../lib/wire/input-limits';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const id = Buffer.from(await hexPathId(ctx, 32, 'DISPUTE envelope id')).toString('hex');
    const o = runtime();
    const raw = await readUpload(req, 8192);
    if (!(raw instanceof Uint8Array)) return problem(413, raw.tooLarge);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
    } catch {
      return problem(400, 'body must be JSON: {"reviewer": "<base58 wallet address>", "message": "<the signed text>", "signature": "<hex>"}');
    }
    const bad = jsonTextProblem(body);
    if (bad) return problem(400, `field "${bad.path}": ${bad.problem}`);
    return json(await recordOpinion(o, id, body));
  });
}
