/**
 * GET /api/batches/challengeable?agent=&epoch=: the entries of the agent's uploaded epoch log
 * that its batch contradicts, each with the evidence a challenger submits (leaf, buffer bytes
 * with merkle proof and batch CBOR, the entry's signing preimage and signature). Empty when the
 * batch reports everything, or when the agent uploaded no log or no batch for that epoch.
 */
import { z } from 'zod';
import { HttpError, agentParam, chainRuntime, handle, json, parseQuery, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

const Query = z.object({
  agent: z.string().trim().min(1, 'must not be empty'),
  epoch: z.string().trim().regex(/^\d{1,19}$/, 'must be a non-negative integer (u64)'),
});

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, Query);
    const wallet = runtime().wallet;
    if (!wallet) throw new HttpError(503, 'the chain is not running in this process');
    const agent = agentParam('agent', p.agent, chainRuntime().parseAgent);
    return json({ candidates: await wallet.challengeCandidates(agent, BigInt(p.epoch)) });
  });
}
