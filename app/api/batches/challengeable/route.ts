/**
 * GET /api/batches/challengeable?agent=&epoch=: the entries of the agent's uploaded epoch log
 * that its batch contradicts, each with the evidence a challenger submits (leaf, buffer bytes
 * with merkle proof and batch CBOR, the entry's signing preimage and signature). Empty when the
 * batch reports everything, or when the agent uploaded no log or no batch for that epoch.
 * `unprovable` counts entries signed by a delegate key, which the challenge program cannot verify.
 */
import { ChallengeableQuerySchema } from '../../../../lib/wire';
import { agentParam, HttpError, handle, json, parseQuery, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const p = parseQuery(req.url, ChallengeableQuerySchema);
    const wallet = runtime().wallet;
    if (!wallet) throw new HttpError(503, 'the chain is not running in this process');
    const agent = agentParam('agent', p.agent);
    return json(await wallet.challengeCandidates(agent, BigInt(p.epoch)));
  });
}
