/**
 * The conversation page's view of a conversation's on-chain (Haggle) negotiations
 * (programs/README.md "Haggle (decisions)"): escrow, decay burned per round, settlement or
 * refund, and each on-chain offer beside the gossiped NEG1 offer of the same round
 * (docs/protocol.md §8), so a difference between what the parties said and what they signed on
 * chain shows. Amounts are decimal strings in USDC base units.
 */
import { z } from 'zod';
import { OFFER_MATCHES } from '../protocol/offer-match';
import { base58Address, hex16, intString, nonNegInt, u64String } from './codec';

/** How one on-chain offer compares with the gossiped NEG1 offer of the same round (lib/protocol/offer-match.ts). */
export const OfferMatchSchema = z.enum(OFFER_MATCHES);
export type OfferMatch = z.infer<typeof OfferMatchSchema>;

/** One round: the on-chain offer (with its round's decay) and/or the gossiped one. */
export const HaggleRoundViewSchema = z.object({
  /**
   * The chain's round (1-based), paired with the gossiped NEG1 offer of that round (lib/protocol/offer-match.ts); a
   * second gossiped offer in one round gets its own row.
   */
  position: nonNegInt.min(1),
  /**
   * The same offer's NEG1 round (0-based, docs/protocol.md §8): the number the page shows, as the chart, timeline and
   * messages do.
   */
  round: nonNegInt,
  side: z.enum(['buyer', 'seller']).nullable(),
  onChain: u64String.nullable(),
  /** Moved from the escrow to the treasury by this offer. */
  decay: u64String.nullable(),
  /** Escrow left after this round's decay. */
  escrow: u64String.nullable(),
  gossip: intString.nullable(),
  match: OfferMatchSchema,
  signature: z.string().nullable(),
});
export type HaggleRoundView = z.infer<typeof HaggleRoundViewSchema>;

export const OnChainNegotiationViewSchema = z.object({
  address: base58Address,
  buyer: base58Address,
  seller: base58Address,
  /** created, proposed, countered, settled, rejected, expired. */
  status: z.string().min(1),
  /** Why a refund happened: rejected, deadline, response window, no ZOPA. */
  reason: z.string().nullable(),
  deposit: u64String,
  escrow: u64String,
  decayed: u64String,
  decayBps: nonNegInt,
  protocolFeeBps: nonNegInt,
  maxRounds: nonNegInt,
  zopaDetection: z.boolean(),
  joined: z.boolean(),
  settlement: z.object({ amount: u64String, fee: u64String, toSeller: u64String, refund: u64String }).nullable(),
  /** Refunded to the buyer without a deal. */
  refund: u64String.nullable(),
  reservations: z.object({ buyer: intString.nullable(), seller: intString.nullable(), zopa: z.boolean().nullable() }),
  rounds: z.array(HaggleRoundViewSchema),
  /** The NEG1 ACCEPT's price, to compare with the settled amount. */
  gossipAccepted: intString.nullable(),
  /** Positions whose offers differ or exist on one side only, plus a settled amount other than the ACCEPT's. */
  differences: nonNegInt,
  createSignature: z.string().min(1),
});
export type OnChainNegotiationView = z.infer<typeof OnChainNegotiationViewSchema>;

/** One row of GET /api/negotiations: an on-chain negotiation and the 0x01 conversation it settles. */
export const NegotiationSummarySchema = z.object({
  address: base58Address,
  conversationId: hex16,
  buyer: base58Address,
  seller: base58Address,
  status: z.string().min(1),
  reason: z.string().nullable(),
  deposit: u64String,
  escrow: u64String,
  decayed: u64String,
  rounds: nonNegInt,
  amount: u64String.nullable(),
  fee: u64String.nullable(),
  toSeller: u64String.nullable(),
  refund: u64String.nullable(),
});
export type NegotiationSummary = z.infer<typeof NegotiationSummarySchema>;

/** GET /api/negotiations. */
export const NegotiationListSchema = z.object({ negotiations: z.array(NegotiationSummarySchema) });
export type NegotiationList = z.infer<typeof NegotiationListSchema>;
