/**
 * POST /api/chain/rpc: the embedded chain's JSON-RPC, same origin. The embedded chain listens on
 * 127.0.0.1 only, so a browser on another machine could not reach it; this route forwards the
 * body unchanged (bounded) and returns the chain's answer. Against a cluster the browser uses
 * SOLANA_RPC_URL itself and this route answers 404. Subscriptions are not proxied: the wallet
 * pages confirm by polling getSignatureStatuses (docs/app.md "Wallet"). Only standard Solana
 * methods are forwarded (app/_lib/rpc-proxy.ts): the chain's development methods, such as
 * zerox1_warpSlot, are for tests on the machine, never for a visitor.
 */
import { readUpload } from '../../../_lib/body';
import { handle, problem, runtime } from '../../../_lib/http';
import { refuseNonStandard } from '../../../_lib/rpc-proxy';

export const dynamic = 'force-dynamic';

/** The embedded chain's own request cap is 4 MiB; a wallet's batch of calls is far below 1 MiB. */
const MAX_BODY = 1024 * 1024;

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const target = runtime().wallet?.embeddedRpcUrl;
    if (!target) return problem(404, 'no embedded chain in this process: the browser talks to the configured cluster directly');
    if (!(req.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) return problem(415, 'content-type must be application/json');
    const body = await readUpload(req, MAX_BODY);
    if (!(body instanceof Uint8Array)) return problem(413, body.tooLarge);
    const refused = refuseNonStandard(body);
    if (refused) return refused;
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(body) }).catch(() => null);
    if (!res) return problem(502, 'the embedded chain did not answer');
    return new Response(await res.arrayBuffer(), { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-store' } });
  });
}
