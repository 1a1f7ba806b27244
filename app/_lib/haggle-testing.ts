/** A settled Haggle negotiation as the store returns it, for the on-chain negotiation view's tests. */
import type { HaggleNegotiationRow, HaggleTransitionRow } from '../../lib/store';

const ADDR = '11111111111111111111111111111111';
const offer = (side: number, amount: bigint, decay: bigint, escrow: bigint, i: number): HaggleTransitionRow => ({
  signature: `sig${i}`,
  index: 0,
  slot: BigInt(i),
  kind: 'offer',
  side,
  round: i,
  amount,
  decay,
  escrow,
  status: side === 1 ? 'proposed' : 'countered',
  at: null,
});

export function haggleRow(over: Partial<HaggleNegotiationRow> = {}): HaggleNegotiationRow {
  return {
    id: 'created-sig',
    address: ADDR,
    conversationId: new Uint8Array(16).fill(9),
    buyer: ADDR,
    seller: ADDR,
    deposit: 2000n,
    deadline: 1n,
    responseWindow: 60,
    decayBps: 50,
    minOfferBps: 0,
    protocolFeeBps: 200,
    maxRounds: 6,
    zopaDetection: false,
    escrow: 0n,
    decayed: 28n,
    currentOffer: 600n,
    lastOfferBy: 1,
    rounds: 3,
    joined: true,
    status: 'settled',
    reason: null,
    buyerReservation: null,
    sellerReservation: null,
    zopa: null,
    amount: 600n,
    fee: 12n,
    toSeller: 588n,
    refund: 1372n,
    createdSlot: 1n,
    slot: 9n,
    createdAt: null,
    closedAt: new Date(1),
    transitions: [offer(1, 400n, 10n, 1990n, 1), offer(2, 900n, 9n, 1981n, 2), offer(1, 600n, 9n, 1972n, 3)],
    ...over,
  };
}
