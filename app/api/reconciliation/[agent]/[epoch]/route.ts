/**
 * GET /api/reconciliation/{agent}/{epoch}: one agent-epoch read live by its keys, every figure
 * with the envelope ids behind it. `agent` 64 hex or base58; an agent-epoch without a verified
 * batch answers its status and why nothing is compared (200, `live` null).
 */
import { NoQuerySchema } from '../../../../../lib/wire/params';
import { agentParam, HttpError, handle, json, parseQuery, runtime } from '../../../../_lib/http';
import { loadReconciliationDetail } from '../../../../_lib/reconciliation';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ agent: string; epoch: string }> }): Promise<Response> {
  return handle(async () => {
    const p = await ctx.params;
    parseQuery(req.url, NoQuerySchema);
    const agent = agentParam('agent', p.agent);
    if (!/^\d{1,19}$/.test(p.epoch) || BigInt(p.epoch) > (1n << 63n) - 1n)
      throw new HttpError(400, 'path parameter "epoch": must be a non-negative integer below 2^63');
    return json(await loadReconciliationDetail(runtime(), agent, BigInt(p.epoch)));
  });
}
