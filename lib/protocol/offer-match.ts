/**
 * Gossip against chain for one Haggle negotiation (docs/protocol.md §8 "Haggle"): the NEG1
 * offers the parties gossiped (PROPOSE / COUNTER, in protocol order) paired by position with the
 * offers they signed on chain, and the ACCEPT's price against the settled amount. One rule for
 * every reader — the conversation page shows it per position, the negotiations dataset counts it —
 * so the two can never disagree about what a difference is.
 */

/** How the offer at one position compares. */
export const OFFER_MATCHES = ['same', 'differs', 'chain_only', 'gossip_only'] as const;
export type OfferMatch = (typeof OFFER_MATCHES)[number];

export interface OfferComparisonInput<T extends { amount: bigint | null }> {
  /** The on-chain offers in chain order. */
  chain: readonly T[];
  /** The gossiped NEG1 offer prices in protocol order. */
  gossip: readonly bigint[];
  /** The negotiation account has closed (settled or refunded). */
  closed: boolean;
  /** The settled amount, when it settled. */
  settled: bigint | null;
  /** The gossiped NEG1 ACCEPT's price, when there is one. */
  gossipAccepted: bigint | null;
}

export interface OfferPosition<T> {
  /** 1-based. */
  position: number;
  chain: T | undefined;
  gossip: bigint | null;
  match: OfferMatch;
}

export interface OfferComparison<T> {
  positions: OfferPosition<T>[];
  /** A settlement at another price than the gossiped ACCEPT's. */
  acceptDiffers: boolean;
  /** Positions that are not `same`, plus one when the settlement differs from the ACCEPT. */
  differences: number;
}

export function compareOffers<T extends { amount: bigint | null }>(p: OfferComparisonInput<T>): OfferComparison<T> {
  // While the negotiation is open, gossip runs ahead of the chain: a gossiped offer not yet
  // mirrored is only a difference once the negotiation has closed.
  const n = p.closed ? Math.max(p.chain.length, p.gossip.length) : p.chain.length;
  const positions: OfferPosition<T>[] = [];
  for (let i = 0; i < n; i++) {
    const t = p.chain[i];
    const g = p.gossip[i] ?? null;
    const match: OfferMatch = !t ? 'gossip_only' : g === null ? 'chain_only' : g === t.amount ? 'same' : 'differs';
    positions.push({ position: i + 1, chain: t, gossip: g, match });
  }
  const acceptDiffers = p.settled !== null && p.gossipAccepted !== null && p.gossipAccepted !== p.settled;
  return { positions, acceptDiffers, differences: positions.filter((x) => x.match !== 'same').length + (acceptDiffers ? 1 : 0) };
}
