/**
 * POST /api/chain/faucet {"address": base58}: 2 SOL and 100 demo USDC to a wallet on the
 * embedded chain. 409 where there is no faucet (a real cluster, or FAUCET=off), 400 naming the
 * field for a bad body, 429 with Retry-After over the per-client or per-wallet budget, 503 when
 * the faucet cannot pay (docs/app.md "Fair limits"). Every refusal is a sentence, never a 500.
 */
import { FaucetRequestSchema } from '../../../../lib/wire';
import { jsonBody } from '../../../_lib/body';
import { clientOf } from '../../../_lib/client';
import { HttpError, handle, json, problem, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const wallet = runtime().wallet;
    if (!wallet) throw new HttpError(503, 'the chain is not running in this process');
    const body = await jsonBody(req, FaucetRequestSchema, {
      cap: 4096,
      example: '{"address": "<base58 wallet address>"}',
    });
    try {
      return json(await wallet.faucet(body.address, clientOf(req)));
    } catch (e) {
      const err = e as { name?: string; message?: string; status?: number; retryAfter?: number };
      if (err?.name === 'FaucetRefused') return problem(409, String(err.message));
      if (err?.name === 'FaucetUnavailable' && (err.status === 429 || err.status === 503)) {
        return json(
          { error: String(err.message) },
          err.status,
          err.retryAfter ? { 'retry-after': String(err.retryAfter) } : {},
        );
      }
      if (/Invalid public key|public key/i.test(String(err?.message)))
        return problem(400, 'field "address": not a valid public key');
      // Whatever else went wrong is the chain's side of a drop: the client did nothing wrong, and
      // a later try may work.
      return problem(503, `the faucet could not send: ${String(err?.message ?? e).slice(0, 300)}`);
    }
  });
}
