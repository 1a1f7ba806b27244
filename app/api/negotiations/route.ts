/**
 * GET /api/negotiations?status=&limit=: the latest on-chain (Haggle) negotiations, newest first,
 * each with the 0x01 conversation it settles (programs/README.md "Haggle (decisions)"). The
 * conversation page shows one negotiation beside its gossiped NEG1 offers.
 */
import { type NegotiationList, NegotiationsQuerySchema } from '../../../lib/wire';
import { bytesToHex } from '../../../lib/wire/codec';
import { handle, json, parseQuery, runtime } from '../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  return handle(async () => {
    const query = parseQuery(req.url, NegotiationsQuerySchema);
    const rows = await runtime().reads.recentOnChainNegotiations({ status: query.status, limit: query.limit });
    const s = (v: bigint | null) => (v === null ? null : v.toString());
    const body: NegotiationList = {
      negotiations: rows.map((n) => ({
        address: n.address,
        conversationId: bytesToHex(n.conversationId),
        buyer: n.buyer,
        seller: n.seller,
        status: n.status,
        reason: n.reason,
        deposit: n.deposit.toString(),
        escrow: n.escrow.toString(),
        decayed: n.decayed.toString(),
        rounds: n.rounds,
        amount: s(n.amount),
        fee: s(n.fee),
        toSeller: s(n.toSeller),
        refund: s(n.refund),
      })),
    };
    return json(body);
  });
}
