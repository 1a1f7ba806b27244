/**
 * GET /api/batches/{agent}/{epoch}/log: the epoch log the agent uploaded for that batch, as
 * envelope bytes in log order, for the browser to recompute the merkle root and compare it with
 * the BatchAccount it reads from the chain. `agent` 64 hex or base58; 404 when no log was uploaded.
 */
import { agentParam, chainRuntime, HttpError, handle, json, runtime } from '../../../../../_lib/http';
import { loadBatchLog } from '../../../../../_lib/verify';

export const dynamic = 'force-dynamic';

export async function GET(
  _req: Request,
  ctx: { params: Promise<{ agent: string; epoch: string }> },
): Promise<Response> {
  return handle(async () => {
    const p = await ctx.params;
    chainRuntime();
    const agent = agentParam('agent', p.agent);
    if (!/^\d{1,19}$/.test(p.epoch) || BigInt(p.epoch) > (1n << 63n) - 1n)
      throw new HttpError(400, 'path parameter "epoch": must be a non-negative integer below 2^63');
    const log = await loadBatchLog(runtime(), agent, BigInt(p.epoch));
    return log ? json(log) : json({ error: `no uploaded log for epoch ${p.epoch} of this agent` }, 404);
  });
}
