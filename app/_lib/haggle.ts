/**
 * The conversation page's on-chain negotiation views (lib/wire/haggle-views.ts): the stored
 * Haggle negotiations of a conversation, each offer paired by round with the gossiped NEG1
 * offer (PROPOSE / COUNTER with a NEG1 payload, docs/protocol.md §8), so a signed on-chain offer
 * that differs from what was gossiped, or one missing on either side, is counted and shown. The
 * pairing rule is lib/protocol/offer-match.ts, shared with the negotiations dataset.
 */

import { compareOffers, type GossipOffer } from '../../lib/protocol/offer-match';
import type { HaggleNegotiationRow } from '../../lib/store';
import type { HaggleRoundView, OnChainNegotiationView, PriceStepView } from '../../lib/wire';
import type { Services } from './services';

const SIDES: Record<number, 'buyer' | 'seller'> = { 1: 'buyer', 2: 'seller' };
const str = (v: bigint | null) => (v === null ? null : v.toString());

/** The gossiped NEG1 offers with their rounds, and the price of the NEG1 ACCEPT (if any). */
function gossipOffers(path: readonly PriceStepView[]): {
  offers: GossipOffer[];
  accepted: bigint | null;
  sealed: boolean;
} {
  const offers = path
    .filter(
      (p) =>
        p.kind === 'neg1' && (p.type === 'PROPOSE' || p.type === 'COUNTER') && p.bidValue !== null && p.round !== null,
    )
    .map((p) => ({
      round: p.round as number,
      amount: BigInt(p.bidValue as string),
      timestamp: p.timestampMs,
      id: p.envelopeId,
      opening: p.type === 'PROPOSE',
    }));
  const accept = path.find((p) => p.kind === 'neg1' && p.type === 'ACCEPT' && p.bidValue !== null);
  const sealed = path.some((p) => p.kind === 'negc' && p.type === 'PROPOSE');
  return { offers, accepted: accept ? BigInt(accept.bidValue as string) : null, sealed };
}

/** One negotiation's view; `path` is the conversation's NEG1 price path. */
export function onChainNegotiationView(
  n: HaggleNegotiationRow,
  path: readonly PriceStepView[],
): OnChainNegotiationView {
  const { offers, accepted, sealed } = gossipOffers(path);
  const settled = n.status === 'settled' && n.amount !== null;
  const cmp = compareOffers({
    chain: n.transitions.filter((t) => t.kind === 'offer'),
    gossip: offers,
    closed: n.closedAt !== null,
    settled: settled ? n.amount : null,
    gossipAccepted: accepted,
    sealedOpening: sealed,
  });
  const rounds: HaggleRoundView[] = cmp.positions.map(({ position, round, chain: t, gossip, match }) => ({
    position,
    round,
    side: t?.side ? (SIDES[t.side] ?? null) : null,
    onChain: t ? str(t.amount) : null,
    decay: t ? str(t.decay) : null,
    escrow: t ? str(t.escrow) : null,
    gossip: str(gossip),
    match,
    signature: t?.signature ?? null,
  }));
  return {
    address: n.address,
    buyer: n.buyer,
    seller: n.seller,
    status: n.status,
    reason: n.reason,
    deposit: n.deposit.toString(),
    escrow: n.escrow.toString(),
    decayed: n.decayed.toString(),
    decayBps: n.decayBps,
    protocolFeeBps: n.protocolFeeBps,
    maxRounds: n.maxRounds,
    zopaDetection: n.zopaDetection,
    joined: n.joined,
    settlement: settled
      ? {
          amount: n.amount!.toString(),
          fee: (n.fee ?? 0n).toString(),
          toSeller: (n.toSeller ?? 0n).toString(),
          refund: (n.refund ?? 0n).toString(),
        }
      : null,
    refund: !settled && n.refund !== null ? n.refund.toString() : null,
    reservations: { buyer: str(n.buyerReservation), seller: str(n.sellerReservation), zopa: n.zopa },
    rounds,
    gossipAccepted: str(accepted),
    differences: cmp.differences,
    createSignature: n.id,
  };
}

/** The conversation's on-chain negotiations as views (empty when there are none). */
export async function loadOnChainNegotiations(
  o: Services,
  idHex: string,
  path: readonly PriceStepView[],
): Promise<OnChainNegotiationView[]> {
  const rows = await o.reads.onChainNegotiations(Buffer.from(idHex, 'hex'));
  return rows.map((r) => onChainNegotiationView(r, path));
}
