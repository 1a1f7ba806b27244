/**
 * Transaction pieces for the Haggle program, used by its tests and bench: the Negotiation and
 * vault PDAs from a 16-byte 0x01 conversation_id, the reservation commitment of docs/protocol.md §8
 * (the NEGC bytes), and instruction builders bound to one negotiation. Uses lib/chain's generated
 * codecs; wallet-facing builders belong to lib/chain.
 */
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import * as haggle from '../../lib/chain/gen/haggle';
import { int128ToBytes, makeReservationCommitment } from '../../lib/protocol/neg1';

/**
 * The Negotiation PDA [b"negotiation", buyer, seller, conversation_id]. program.json declares the
 * 16-byte id as two u64 seeds (the generator has no byte-array seeds); PDA seeds are hashed
 * concatenated, so two little-endian halves give the same address as the 16 raw bytes.
 */
export function negotiationPda(buyer: PublicKey, seller: PublicKey, conversationId: Uint8Array): [PublicKey, number] {
  if (conversationId.length !== 16) throw new RangeError('conversation_id must be 16 bytes');
  const dv = new DataView(conversationId.buffer, conversationId.byteOffset, 16);
  return haggle.findNegotiationPda(buyer, seller, dv.getBigUint64(0, true), dv.getBigUint64(8, true));
}

/** SHA-256(price as int128 big-endian || salt): what commit_reservation stores and NEGC carries. */
export const reservationCommitment = (price: bigint, salt: Uint8Array) => makeReservationCommitment(price, salt);
export const priceBytes = (price: bigint) => int128ToBytes(price);

/** One negotiation's keys: the parties, their USDC accounts and the protocol treasury. */
export interface Deal {
  buyer: PublicKey;
  seller: PublicKey;
  conversationId: Uint8Array;
  buyerUsdc: PublicKey;
  sellerUsdc: PublicKey;
  treasury: PublicKey;
  mint: PublicKey;
}

export const dealKeys = (d: Deal) => {
  const [negotiation] = negotiationPda(d.buyer, d.seller, d.conversationId);
  const [vault] = haggle.findVaultPda(negotiation);
  return { negotiation, vault };
};

export type CreateParams = Omit<haggle.CreateNegotiationArgs, 'conversationId'>;

/** Instruction builders for one deal; `over` replaces accounts (to test the refusals). */
export function dealIxs(d: Deal) {
  const { negotiation, vault } = dealKeys(d);
  const refundAccounts = { negotiation, vault, buyer: d.buyer, buyerUsdc: d.buyerUsdc };
  return {
    negotiation,
    vault,
    create: (p: CreateParams, over: Partial<haggle.CreateNegotiationAccounts> = {}): TransactionInstruction =>
      haggle.createNegotiationInstruction(
        {
          buyer: d.buyer,
          seller: d.seller,
          negotiation,
          vault,
          buyerUsdc: d.buyerUsdc,
          usdcMint: d.mint,
          ...over,
        },
        { ...p, conversationId: d.conversationId },
      ),
    join: (seller = d.seller): TransactionInstruction => haggle.acceptNegotiationInstruction({ seller, negotiation }),
    offer: (
      party: PublicKey,
      amount: bigint,
      metadata = new Uint8Array(64),
      over: Partial<haggle.SubmitOfferAccounts> = {},
    ) =>
      haggle.submitOfferInstruction({ party, negotiation, vault, treasury: d.treasury, ...over }, { amount, metadata }),
    commit: (party: PublicKey, commitment: Uint8Array) =>
      haggle.commitReservationInstruction({ party, negotiation }, { commitment }),
    reveal: (party: PublicKey, price: bigint, salt: Uint8Array, over: Partial<haggle.RevealReservationAccounts> = {}) =>
      haggle.revealReservationInstruction({ party, ...refundAccounts, ...over }, { price: int128ToBytes(price), salt }),
    accept: (party: PublicKey, over: Partial<haggle.AcceptOfferAccounts> = {}) =>
      haggle.acceptOfferInstruction({
        party,
        ...refundAccounts,
        sellerUsdc: d.sellerUsdc,
        treasury: d.treasury,
        ...over,
      }),
    reject: (party: PublicKey, over: Partial<haggle.RejectAccounts> = {}) =>
      haggle.rejectInstruction({ party, ...refundAccounts, ...over }),
    expire: (over: Partial<haggle.ExpireAccounts> = {}) => haggle.expireInstruction({ ...refundAccounts, ...over }),
  };
}
