/**
 * `data` of the live events of the Haggle program (programs/README.md "Haggle (decisions)"), as
 * the chain indexer publishes them: the decoded event (addresses base58, bytes hex, u64 and i64
 * as decimal strings) plus the transaction's signature and slot. Every event names its
 * negotiation (the PDA) and the 0x01 conversation it settles, so a page can join it to the
 * gossiped NEG1 offers.
 */
import { z } from 'zod';
import { base58Address, hex16, hex32, hexOf, i64String, nonNegInt, u64String } from './codec';

const u8 = nonNegInt.max(255);
const u16 = nonNegInt.max(0xffff);
const u32 = nonNegInt.max(0xffff_ffff);

/** Fields every haggle event carries. */
const haggleBase = {
  negotiation: base58Address,
  conversationId: hex16,
  signature: z.string().min(1),
  slot: nonNegInt,
};

/** NegotiationCreated: the buyer escrowed `deposit`. */
export const HaggleCreatedData = z.object({
  ...haggleBase,
  buyer: base58Address,
  seller: base58Address,
  deposit: u64String,
  deadline: i64String,
  createdAt: i64String,
  responseWindow: u32,
  decayBps: u16,
  minOfferBps: u16,
  protocolFeeBps: u16,
  maxRounds: u8,
  zopaDetection: u8,
});

/** NegotiationJoined: the seller accepted the negotiation. */
export const HaggleJoinedData = z.object({ ...haggleBase, seller: base58Address, at: i64String });

/** OfferSubmitted: `decay` moved to the treasury this round, `escrow` is what is left; side 1 buyer, 2 seller. */
export const HaggleOfferData = z.object({
  ...haggleBase,
  amount: u64String,
  decay: u64String,
  escrow: u64String,
  at: i64String,
  side: u8,
  round: u8,
  status: u8,
  metadata: hexOf(64),
  statusName: z.string().min(1),
});

/** ReservationCommitted: a sealed reservation (the NEGC commitment). */
export const HaggleCommittedData = z.object({ ...haggleBase, commitment: hex32, side: u8 });

/** ReservationRevealed: the price as 16-byte int128 (hex); `zopa` is meaningful once both revealed. */
export const HaggleRevealedData = z.object({ ...haggleBase, price: hex16, side: u8, bothRevealed: u8, zopa: u8 });

/** OfferAccepted: `side` accepted the standing offer `amount`. */
export const HaggleAcceptedData = z.object({ ...haggleBase, amount: u64String, at: i64String, side: u8, round: u8 });

/** NegotiationSettled: `toSeller` + `fee` = `amount`; `refund` went back to the buyer; `decayed` is the total decay. */
export const HaggleSettledData = z.object({
  ...haggleBase,
  buyer: base58Address,
  seller: base58Address,
  amount: u64String,
  fee: u64String,
  toSeller: u64String,
  refund: u64String,
  decayed: u64String,
});

/** NegotiationRefunded: rejected, expired or without a ZOPA; reason and status also by name. */
export const HaggleRefundedData = z.object({
  ...haggleBase,
  buyer: base58Address,
  refund: u64String,
  decayed: u64String,
  at: i64String,
  status: u8,
  reason: u8,
  side: u8,
  statusName: z.string().min(1),
  reasonName: z.string().min(1),
});
