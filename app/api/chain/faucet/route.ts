/**
 * POST /api/chain/faucet {"address": base58}: 2 SOL and 100 demo USDC to a wallet on the
 * embedded chain. 409 on a real cluster (the server mints nothing there), 400 naming the field
 * for a bad body.
 */
import { FaucetRequestSchema } from '../../../../lib/wire';
import { readUpload } from '../../../_lib/body';
import { HttpError, handle, json, problem, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const wallet = runtime().wallet;
    if (!wallet) throw new HttpError(503, 'the chain is not running in this process');
    const raw = await readUpload(req, 4096);
    if (!(raw instanceof Uint8Array)) return problem(413, raw.tooLarge);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      return problem(400, 'body must be JSON: {"address": "<base58 wallet address>"}');
    }
    const r = FaucetRequestSchema.safeParse(body);
    if (!r.success) {
      const i = r.error.issues[0];
      return problem(400, `field "${i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : 'body')}": ${i.message}`);
    }
    try {
      return json(await wallet.faucet(r.data.address));
    } catch (e) {
      if ((e as Error)?.name === 'FaucetRefused') return problem(409, (e as Error).message);
      if (/Invalid public key|public key/i.test(String((e as Error)?.message))) return problem(400, 'field "address": not a valid public key');
      throw e;
    }
  });
}
