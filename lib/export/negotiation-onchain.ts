/**
 * The negotiations table's on-chain columns (tables.ts): a conversation's Haggle negotiations as
 * the chain indexer stored them (lib/store/chain/haggle.ts), the latest one described, and its offers
 * held against the gossiped NEG1 offers with the conversation page's rule
 * (lib/protocol/offer-match.ts).
 */

import { toHex } from '../protocol/hex';
import { compareOffers, type GossipOffer } from '../protocol/offer-match';
import type { HaggleNegotiationRow } from '../store';
import type { Row } from './schema';

/** What the conversation gossiped: NEG1 PROPOSE / COUNTER offers with their rounds, and the NEG1 ACCEPT's price. */
export interface GossipOffers {
  offers: GossipOffer[];
  accepted: bigint | null;
  sealed?: boolean;
}

const us = (d: Date | null) => (d === null ? null : BigInt(d.getTime()) * 1000n);

/** The on-chain columns of one conversation; `chain` holds its negotiations oldest first (may be empty). */
export function onChainColumns(chain: readonly HaggleNegotiationRow[], gossip: GossipOffers): Row {
  const n = chain[chain.length - 1];
  if (!n) return { ...OFF_CHAIN };
  const settled = n.status === 'settled' && n.amount !== null;
  const cmp = compareOffers({
    chain: n.transitions.filter((t) => t.kind === 'offer'),
    gossip: gossip.offers,
    closed: n.closedAt !== null,
    settled: settled ? n.amount : null,
    gossipAccepted: gossip.accepted,
    sealedOpening: gossip.sealed,
  });
  const last = n.transitions[n.transitions.length - 1];
  return {
    onchain: true,
    onchain_negotiations: chain.length,
    onchain_address: n.address,
    onchain_create_signature: n.id,
    onchain_buyer: n.buyer,
    onchain_seller: n.seller,
    onchain_status: n.status,
    onchain_refund_reason: n.reason,
    onchain_decay_bps: n.decayBps,
    onchain_protocol_fee_bps: n.protocolFeeBps,
    onchain_max_rounds: n.maxRounds,
    escrow_deposited: n.deposit,
    escrow_decayed_total: n.decayed,
    escrow_held: n.escrow,
    rounds_onchain: n.rounds,
    onchain_last_offer: n.currentOffer,
    settled_amount: settled ? n.amount : null,
    settled_amount_to_seller: settled ? n.toSeller : null,
    protocol_fee: settled ? n.fee : null,
    refund_to_buyer: n.refund,
    onchain_buyer_reservation: n.buyerReservation,
    onchain_seller_reservation: n.sellerReservation,
    onchain_zopa: n.zopa,
    onchain_created_slot: n.createdSlot,
    onchain_created_at: us(n.createdAt),
    onchain_last_slot: n.slot,
    onchain_last_at: us(last?.at ?? n.createdAt),
    onchain_closed_at: us(n.closedAt),
    onchain_offer_differences: cmp.differences,
    onchain_matches_gossip: cmp.differences === 0,
  };
}

/** A conversation nobody settled on chain. */
const OFF_CHAIN: Row = Object.freeze({
  onchain: false,
  onchain_negotiations: 0,
  onchain_address: null,
  onchain_create_signature: null,
  onchain_buyer: null,
  onchain_seller: null,
  onchain_status: null,
  onchain_refund_reason: null,
  onchain_decay_bps: null,
  onchain_protocol_fee_bps: null,
  onchain_max_rounds: null,
  escrow_deposited: null,
  escrow_decayed_total: null,
  escrow_held: null,
  rounds_onchain: null,
  onchain_last_offer: null,
  settled_amount: null,
  settled_amount_to_seller: null,
  protocol_fee: null,
  refund_to_buyer: null,
  onchain_buyer_reservation: null,
  onchain_seller_reservation: null,
  onchain_zopa: null,
  onchain_created_slot: null,
  onchain_created_at: null,
  onchain_last_slot: null,
  onchain_last_at: null,
  onchain_closed_at: null,
  onchain_offer_differences: null,
  onchain_matches_gossip: null,
});

/** The negotiations table's on-chain columns, by name. */
export const ONCHAIN_COLUMNS: ReadonlySet<string> = new Set(Object.keys(OFF_CHAIN));

/** Groups negotiations by conversation (hex), keeping their order. */
export function byConversationId(rows: readonly HaggleNegotiationRow[]): Map<string, HaggleNegotiationRow[]> {
  const out = new Map<string, HaggleNegotiationRow[]>();
  for (const r of rows) {
    const k = toHex(r.conversationId);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
