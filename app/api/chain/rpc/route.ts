/**
 * POST /api/chain/rpc: the embedded chain's JSON-RPC, same origin. The embedded chain listens on
 * 127.0.0.1 only, so a browser on another machine could not reach it; this route forwards the
 * body unchanged (bounded) and returns the chain's answer. Against a cluster the browser uses
 * SOLANA_RPC_URL itself and this route answers 404. Subscriptions are not proxied: the wallet
 * pages confirm by polling getSignatureStatuses (docs/app.md "Wallet"). Only standard Solana
 * methods are forwarded (lib/chain/node/rpc-proxy.ts): the chain's development methods, such as
 * zerox1_warpSlot, are for tests on the machine, never for a visitor.
 *
 * The chain runs in this process, so what the proxy forwards is bounded (docs/app.md "Fair
 * limits"): batches of at most RPC_MAX_BATCH calls (413), per-client budgets of calls and of
 * expensive calls and a bounded number of requests at once (429 with Retry-After, which stock
 * clients back off on), and airdrops only from the faucet's budget and at most one drop's SOL.
 * Refusals are JSON-RPC error objects naming the limit.
 */

import { inspectRpcBody, rpcError } from '../../../../lib/chain/node/rpc-proxy';
import { readUpload } from '../../../_lib/body';
import { clientOf } from '../../../_lib/client';
import { handle, problem, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

/** The embedded chain's own request cap is 4 MiB; a wallet's batch of calls is far below 1 MiB. */
const MAX_BODY = 1024 * 1024;

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const wallet = runtime().wallet;
    const target = wallet?.embeddedRpcUrl;
    if (!wallet || !target)
      return problem(404, 'no embedded chain in this process: the browser talks to the configured cluster directly');
    if (!(req.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json'))
      return problem(415, 'content-type must be application/json');
    const body = await readUpload(req, MAX_BODY);
    if (!(body instanceof Uint8Array)) return problem(413, body.tooLarge);
    const rpc = inspectRpcBody(body, wallet.rpcMaxBatch);
    if (rpc instanceof Response) return rpc;
    const id = rpc.batch ? null : rpc.calls[0]?.id;
    const client = clientOf(req);
    const airdrop = wallet.admitAirdrops(client, rpc.airdrops);
    if (airdrop)
      return rpcError(
        id,
        airdrop.code,
        airdrop.message,
        airdrop.status,
        airdrop.retryAfter ? { 'retry-after': String(airdrop.retryAfter) } : {},
      );
    const turn = await wallet.admitRpc(client, { calls: rpc.calls.length, heavy: rpc.heavy });
    if ('status' in turn)
      return rpcError(
        id,
        turn.status === 413 ? -32600 : -32005,
        turn.message,
        turn.status,
        turn.retryAfter ? { 'retry-after': String(turn.retryAfter) } : {},
      );
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(body),
      }).catch(() => null);
      if (!res) return problem(502, 'the embedded chain did not answer');
      return new Response(await res.arrayBuffer(), {
        status: res.status,
        headers: { 'content-type': res.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-store' },
      });
    } finally {
      turn.release();
    }
  });
}
