/**
 * Gossip against chain for one Haggle negotiation (docs/protocol.md §8 "Haggle"): the NEG1
 * offers the parties gossiped (PROPOSE / COUNTER) paired by round with the offers they signed on
 * chain, and the ACCEPT's price against the settled amount. One rule for every reader — the
 * conversation page shows it per round, the negotiations dataset counts it — so the two can never
 * disagree about what a difference is.
 *
 * Pairing is by round, never by arrival: two offers stamped in the same millisecond can be stored
 * in either order, and pairing by position then reports a difference that is not there. The chain
 * counts offers from 1 (its round after the k-th offer is k); NEG1 rounds count from 0, so
 * gossiped round r pairs with the chain's round r + 1. The opening PROPOSE anchors the numbering
 * when it was seen: it is the chain's first offer whatever round its sender wrote in it, so an
 * agent that numbers from 1 is not blamed for every offer. A sealed-bid negotiation has no NEG1
 * PROPOSE (its PROPOSE carries the NEGC commitment): its offers open with a COUNTER after the
 * reveals, numbered after the commitment exchange, so there the first gossiped offer anchors.
 */

/** How the offer at one position compares. */
export const OFFER_MATCHES = ['same', 'differs', 'chain_only', 'gossip_only'] as const;
export type OfferMatch = (typeof OFFER_MATCHES)[number];

/** One gossiped NEG1 offer: its round and price, with its time and id to order offers of one round. */
export interface GossipOffer {
  /** The NEG1 round (0-based). */
  round: number;
  amount: bigint;
  /** Envelope timestamp (any unit, the same for every offer): orders offers that share a round. */
  timestamp?: bigint | number;
  /** Envelope id (hex): the last tiebreak, so the order never depends on arrival. */
  id?: string;
  /** A PROPOSE: the negotiation's opening offer, the chain's round 1. */
  opening?: boolean;
}

/** What an on-chain offer needs for the comparison: its amount and the chain's round after it. */
export interface ChainOffer {
  amount: bigint | null;
  round?: number | null;
}

export interface OfferComparisonInput<T extends ChainOffer> {
  /** The on-chain offers (any order; each carries the chain's round, else its place in chain order counts). */
  chain: readonly T[];
  /** The gossiped NEG1 offers (any order). */
  gossip: readonly GossipOffer[];
  /** The negotiation account has closed (settled or refunded). */
  closed: boolean;
  /** The settled amount, when it settled. */
  settled: bigint | null;
  /** The gossiped NEG1 ACCEPT's price, when there is one. */
  gossipAccepted: bigint | null;
  /** The negotiation opened with a sealed-bid commitment (a NEGC PROPOSE): its first NEG1 offer is the opening. */
  sealedOpening?: boolean;
}

export interface OfferPosition<T> {
  /** 1-based offer number: the chain's round, the NEG1 round + 1. */
  position: number;
  /**
   * The NEG1 round of this position (docs/protocol.md §8: 0-based), the one numbering every page shows:
   * the chain's round counted from the opening offer's NEG1 round.
   */
  round: number;
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

const cmpBig = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order of a negotiation's offers: NEG1 round, then timestamp, then envelope id. The dataset's
 * `step` and the page's rounds both follow it, so neither depends on which offer arrived first.
 */
export function compareByRound(a: GossipOffer, b: GossipOffer): number {
  if (a.round !== b.round) return a.round - b.round;
  const ta = a.timestamp === undefined ? 0n : BigInt(a.timestamp);
  const tb = b.timestamp === undefined ? 0n : BigInt(b.timestamp);
  if (ta !== tb) return cmpBig(ta, tb);
  const ia = a.id ?? '';
  const ib = b.id ?? '';
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** `items` sorted by {@link compareByRound} of what `key` reads from each (a copy; stable). */
export function sortByRound<I>(items: readonly I[], key: (i: I) => GossipOffer): I[] {
  return items
    .map((i) => ({ i, k: key(i) }))
    .sort((a, b) => compareByRound(a.k, b.k))
    .map((x) => x.i);
}

export function compareOffers<T extends ChainOffer>(p: OfferComparisonInput<T>): OfferComparison<T> {
  // The chain's offers by its round (an offer event without one keeps its place in chain order).
  const chainAt = new Map<number, T>();
  const chainExtra: Array<{ n: number; t: T }> = [];
  p.chain.forEach((t, i) => {
    const n = typeof t.round === 'number' ? t.round : i + 1;
    if (chainAt.has(n)) chainExtra.push({ n, t });
    else chainAt.set(n, t);
  });
  // The gossiped offers by round; a second offer in one round (a resend, or a party out of turn)
  // has no on-chain counterpart and stands on its own.
  const sorted = [...p.gossip].sort(compareByRound);
  const opening = sorted.find((g) => g.opening) ?? (p.sealedOpening ? sorted[0] : undefined);
  const shift = opening ? 1 - opening.round : 1;
  const gossipAt = new Map<number, bigint>();
  const gossipExtra: Array<{ n: number; g: bigint }> = [];
  for (const g of sorted) {
    const n = g.round + shift;
    if (gossipAt.has(n)) gossipExtra.push({ n, g: g.amount });
    else gossipAt.set(n, g.amount);
  }
  // While the negotiation is open, gossip runs ahead of the chain: a gossiped offer beyond the
  // chain's latest round is only a difference once the negotiation has closed.
  const lastChain = Math.max(0, ...chainAt.keys(), ...chainExtra.map((x) => x.n));
  const shown = (n: number) => p.closed || n <= lastChain;
  const rows: Array<Omit<OfferPosition<T>, 'round'> & { order: number }> = [];
  for (const n of new Set([...chainAt.keys(), ...gossipAt.keys()])) {
    if (!shown(n)) continue;
    const t = chainAt.get(n);
    const g = gossipAt.get(n) ?? null;
    const match: OfferMatch = !t ? 'gossip_only' : g === null ? 'chain_only' : g === t.amount ? 'same' : 'differs';
    rows.push({ position: n, chain: t, gossip: g, match, order: 0 });
  }
  for (const x of chainExtra) rows.push({ position: x.n, chain: x.t, gossip: null, match: 'chain_only', order: 1 });
  for (const x of gossipExtra)
    if (shown(x.n)) rows.push({ position: x.n, chain: undefined, gossip: x.g, match: 'gossip_only', order: 2 });
  rows.sort((a, b) => a.position - b.position || a.order - b.order);
  const positions: OfferPosition<T>[] = rows.map((r) => ({
    position: r.position,
    round: r.position - shift,
    chain: r.chain,
    gossip: r.gossip,
    match: r.match,
  }));
  const acceptDiffers = p.settled !== null && p.gossipAccepted !== null && p.gossipAccepted !== p.settled;
  return {
    positions,
    acceptDiffers,
    differences: positions.filter((x) => x.match !== 'same').length + (acceptDiffers ? 1 : 0),
  };
}
