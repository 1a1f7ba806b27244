/**
 * NODE-ONLY (server, scripts, tests, demo agents): Keypair wrappers for the Haggle program
 * (programs/README.md "Haggle (decisions)"). Each builds with the browser-safe SDK
 * (lib/chain/haggle.ts) and signs and sends with send.ts; `ensureHaggleConfig` is the admin's
 * one-time `initialize` on the deployment's USDC mint and treasury.
 */
import type { Connection, Keypair, PublicKey } from '@solana/web3.js';
import {
  acceptNegotiationInstructions,
  acceptOfferInstructions,
  type CreateNegotiationParams,
  commitReservationInstructions,
  createNegotiationInstructions,
  decodeHaggleConfig,
  decodeNegotiationAccount,
  expireNegotiationInstructions,
  type HaggleConfig,
  haggle,
  type NegotiationRef,
  negotiationAddress,
  rejectNegotiationInstructions,
  revealReservationInstructions,
  submitOfferInstructions,
} from '../haggle';
import { sendIxs } from './send';

/**
 * Initializes the haggle Config on `usdcMint` and `treasury` unless it exists (then it is only
 * read: a Config keeps the mint and treasury of its first start). Returns the config in force.
 */
export async function ensureHaggleConfig(
  connection: Connection,
  p: { admin: Keypair; usdcMint: PublicKey; treasury: PublicKey },
): Promise<HaggleConfig & { created: boolean }> {
  const [config] = haggle.findConfigPda();
  const info = await connection.getAccountInfo(config, 'confirmed');
  const existing = info ? decodeHaggleConfig(info.data) : null;
  if (existing) return { ...existing, created: false };
  await sendIxs(
    connection,
    [haggle.initializeInstruction({ admin: p.admin.publicKey, usdcMint: p.usdcMint, treasury: p.treasury })],
    [p.admin],
  );
  return { usdcMint: p.usdcMint, treasury: p.treasury, created: true };
}

/** The negotiation account now, or null when it does not exist (never created, or closed). */
export async function fetchNegotiation(
  connection: Connection,
  ref: NegotiationRef,
): Promise<haggle.Negotiation | null> {
  const info = await connection.getAccountInfo(negotiationAddress(ref), 'confirmed');
  return info?.owner.equals(haggle.PROGRAM_ID) ? decodeNegotiationAccount(new Uint8Array(info.data)) : null;
}

type Ref = NegotiationRef & { config: HaggleConfig };

/** The buyer opens the negotiation and escrows the deposit. */
export function createNegotiation(
  connection: Connection,
  p: Omit<CreateNegotiationParams, 'buyer'> & { buyer: Keypair },
): Promise<string> {
  return sendIxs(connection, createNegotiationInstructions({ ...p, buyer: p.buyer.publicKey }), [p.buyer]);
}

/** The seller joins. */
export function acceptNegotiation(
  connection: Connection,
  p: Omit<NegotiationRef, 'seller'> & { seller: Keypair },
): Promise<string> {
  return sendIxs(connection, acceptNegotiationInstructions({ ...p, seller: p.seller.publicKey }), [p.seller]);
}

/** An offer by `party` (its turn). */
export function submitOffer(
  connection: Connection,
  p: Ref & { party: Keypair; amount: bigint; metadata?: Uint8Array },
): Promise<string> {
  return sendIxs(connection, submitOfferInstructions({ ...p, party: p.party.publicKey }), [p.party]);
}

/** Accepts the other side's standing offer: settles and closes. */
export function acceptOffer(connection: Connection, p: Ref & { party: Keypair }): Promise<string> {
  return sendIxs(connection, acceptOfferInstructions({ ...p, party: p.party.publicKey }), [p.party]);
}

/** Ends the negotiation; the buyer gets the escrow left. */
export function rejectNegotiation(connection: Connection, p: Ref & { party: Keypair }): Promise<string> {
  return sendIxs(connection, rejectNegotiationInstructions({ ...p, party: p.party.publicKey }), [p.party]);
}

/** Expires a negotiation past its deadline or response window; `payer` may be anyone. */
export function expireNegotiation(connection: Connection, p: Ref & { payer: Keypair }): Promise<string> {
  return sendIxs(connection, expireNegotiationInstructions(p), [p.payer]);
}

/** Commits a sealed reservation (the NEGC commitment). */
export function commitReservation(
  connection: Connection,
  p: NegotiationRef & { party: Keypair; commitment: Uint8Array },
): Promise<string> {
  return sendIxs(connection, commitReservationInstructions({ ...p, party: p.party.publicKey }), [p.party]);
}

/** Reveals a sealed reservation (the NEGR price and salt). */
export function revealReservation(
  connection: Connection,
  p: Ref & { party: Keypair; price: bigint; salt: Uint8Array },
): Promise<string> {
  return sendIxs(connection, revealReservationInstructions({ ...p, party: p.party.publicKey }), [p.party]);
}
