/**
 * Instruction builders for the Haggle program (programs/README.md "Haggle (decisions)"), taking
 * public keys only: a wallet (or lib/chain/node/haggle.ts with Keypairs) signs. One negotiation is
 * named by (buyer wallet, seller wallet, 16-byte 0x01 conversation id); its PDA, its vault and the
 * parties' USDC accounts follow from those and the haggle config (USDC mint, treasury).
 * Browser-safe.
 */
import { PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { int128ToBytes, makeReservationCommitment } from '../protocol/neg1';
import { usdcAccountOf } from './config';
import { ChainAccountError } from './errors';
import * as haggle from './gen/haggle';

export { haggle };

/** Negotiation status as events and the account carry it (gen/haggle.ts Negotiation). */
export const HAGGLE_STATUS_NAMES: Readonly<Record<number, string>> = {
  1: 'created',
  2: 'proposed',
  3: 'countered',
  4: 'accepted',
  5: 'settled',
  6: 'expired',
  7: 'rejected',
};
/** NegotiationRefunded reasons (programs/haggle/refund.c): who or what ended it. */
export const HAGGLE_REFUND_REASONS: Readonly<Record<number, string>> = {
  1: 'rejected',
  2: 'deadline',
  3: 'response window',
  4: 'no ZOPA',
};
/** Sides in events: 1 buyer, 2 seller. */
export const HAGGLE_SIDES: Readonly<Record<number, 'buyer' | 'seller'>> = { 1: 'buyer', 2: 'seller' };

/** The deployment a negotiation settles in: the haggle Config account's mint and treasury. */
export interface HaggleConfig {
  usdcMint: PublicKey;
  treasury: PublicKey;
}

/** One negotiation's identity: the two wallets and the 0x01 conversation. */
export interface NegotiationRef {
  buyer: PublicKey;
  seller: PublicKey;
  /** 16 bytes, the conversation_id of the NEG1 envelopes. */
  conversationId: Uint8Array;
}

const isKey = (k: unknown): k is PublicKey => k instanceof PublicKey;

function checkRef(r: NegotiationRef): void {
  if (!r || !isKey(r.buyer) || !isKey(r.seller)) throw new TypeError('buyer and seller must be PublicKeys');
  if (!(r.conversationId instanceof Uint8Array) || r.conversationId.length !== 16)
    throw new TypeError('conversationId must be 16 bytes');
  if (r.buyer.equals(r.seller)) throw new RangeError('buyer and seller must differ');
}
function checkConfig(c: HaggleConfig): void {
  if (!c || !isKey(c.usdcMint) || !isKey(c.treasury))
    throw new TypeError('config must be a HaggleConfig (loadHaggleConfig)');
}
function checkParty(party: unknown): asserts party is PublicKey {
  if (!isKey(party)) throw new TypeError('party must be a PublicKey');
}

/**
 * The Negotiation PDA [b"negotiation", buyer, seller, conversation_id]. program.json spells the
 * 16-byte id as two u64 seeds (the generator has no byte-array seed); seeds are hashed
 * concatenated, so the two little-endian halves give the address of the 16 raw bytes.
 */
export function negotiationAddress(r: NegotiationRef): PublicKey {
  checkRef(r);
  const dv = new DataView(r.conversationId.buffer, r.conversationId.byteOffset, 16);
  return haggle.findNegotiationPda(r.buyer, r.seller, dv.getBigUint64(0, true), dv.getBigUint64(8, true))[0];
}

/** The negotiation's addresses: its PDA and its vault (SPL Token account owned by the PDA). */
export function negotiationAddresses(r: NegotiationRef): { negotiation: PublicKey; vault: PublicKey } {
  const negotiation = negotiationAddress(r);
  return { negotiation, vault: haggle.findVaultPda(negotiation)[0] };
}

/** The haggle config in Config account data, or null when it is not one. */
export function decodeHaggleConfig(data: Uint8Array): HaggleConfig | null {
  const c = data instanceof Uint8Array ? haggle.decodeHaggleConfig(data) : null;
  return c ? { usdcMint: c.usdcMint, treasury: c.treasury } : null;
}

/** Reads the haggle Config account; ChainAccountError when the program is not initialized. */
export async function loadHaggleConfig(connection: {
  getAccountInfo(k: PublicKey, c?: 'confirmed'): Promise<{ data: Uint8Array } | null>;
}): Promise<HaggleConfig> {
  const info = await connection.getAccountInfo(haggle.findConfigPda()[0], 'confirmed');
  const cfg = info ? decodeHaggleConfig(info.data) : null;
  if (!cfg) throw new ChainAccountError('haggle is not initialized (no Config account)');
  return cfg;
}

/** Parameters of create_negotiation (ranges: programs/README.md "Parameters"). */
export interface CreateNegotiationParams extends NegotiationRef {
  config: HaggleConfig;
  /** Escrow in USDC base units, > 0. */
  deposit: bigint;
  /** Absolute unix seconds, now+60 … now+86400. */
  deadline: bigint;
  /** Seconds, 60–3600. */
  responseWindow: number;
  /** 0–1000. */
  decayBps: number;
  /** 0–10000, of the original deposit. */
  minOfferBps?: number;
  /** 0–500. */
  protocolFeeBps?: number;
  /** 1–20. */
  maxRounds: number;
  /** Sealed reservations allowed (commit/reveal). */
  zopaDetection?: boolean;
}

const intIn = (name: string, v: unknown, lo: number, hi: number): number => {
  if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi)
    throw new RangeError(`${name} must be an integer in ${lo}..${hi}`);
  return v as number;
};

/** create_negotiation: the buyer escrows `deposit` into the negotiation's vault. Signer: buyer. */
export function createNegotiationInstructions(p: CreateNegotiationParams): TransactionInstruction[] {
  checkRef(p);
  checkConfig(p.config);
  if (typeof p.deposit !== 'bigint' || p.deposit <= 0n) throw new RangeError('deposit must be a positive bigint');
  if (typeof p.deadline !== 'bigint') throw new TypeError('deadline must be a bigint (unix seconds)');
  const { negotiation, vault } = negotiationAddresses(p);
  return [
    haggle.createNegotiationInstruction(
      {
        buyer: p.buyer,
        seller: p.seller,
        negotiation,
        vault,
        buyerUsdc: usdcAccountOf(p.config.usdcMint, p.buyer),
        usdcMint: p.config.usdcMint,
      },
      {
        conversationId: p.conversationId,
        deposit: p.deposit,
        deadline: p.deadline,
        responseWindow: intIn('responseWindow', p.responseWindow, 0, 0xffff_ffff),
        decayBps: intIn('decayBps', p.decayBps, 0, 0xffff),
        minOfferBps: intIn('minOfferBps', p.minOfferBps ?? 0, 0, 0xffff),
        protocolFeeBps: intIn('protocolFeeBps', p.protocolFeeBps ?? 0, 0, 0xffff),
        maxRounds: intIn('maxRounds', p.maxRounds, 0, 255),
        zopaDetection: p.zopaDetection ? 1 : 0,
      },
    ),
  ];
}

/** accept_negotiation: the seller joins. Signer: seller. */
export function acceptNegotiationInstructions(p: NegotiationRef): TransactionInstruction[] {
  return [haggle.acceptNegotiationInstruction({ seller: p.seller, negotiation: negotiationAddress(p) })];
}

/**
 * submit_offer: `party` (buyer or seller, whose turn it is) offers `amount`; the round's decay goes to the treasury.
 */
export function submitOfferInstructions(
  p: NegotiationRef & { config: HaggleConfig; party: PublicKey; amount: bigint; metadata?: Uint8Array },
): TransactionInstruction[] {
  checkConfig(p.config);
  checkParty(p.party);
  if (typeof p.amount !== 'bigint' || p.amount < 0n) throw new RangeError('amount must be a non-negative bigint');
  const metadata = p.metadata ?? new Uint8Array(64);
  if (!(metadata instanceof Uint8Array) || metadata.length > 64)
    throw new TypeError('metadata must be at most 64 bytes');
  const padded = new Uint8Array(64);
  padded.set(metadata);
  const { negotiation, vault } = negotiationAddresses(p);
  return [
    haggle.submitOfferInstruction(
      { party: p.party, negotiation, vault, treasury: p.config.treasury },
      { amount: p.amount, metadata: padded },
    ),
  ];
}

/** The accounts every refund path (reveal without ZOPA, reject, expire) pays out to. */
function refundAccounts(p: NegotiationRef & { config: HaggleConfig }) {
  checkConfig(p.config);
  const { negotiation, vault } = negotiationAddresses(p);
  return { negotiation, vault, buyer: p.buyer, buyerUsdc: usdcAccountOf(p.config.usdcMint, p.buyer) };
}

/** accept_offer: the side that did not make the standing offer accepts it; settles and closes. */
export function acceptOfferInstructions(
  p: NegotiationRef & { config: HaggleConfig; party: PublicKey },
): TransactionInstruction[] {
  checkParty(p.party);
  return [
    haggle.acceptOfferInstruction({
      party: p.party,
      ...refundAccounts(p),
      sellerUsdc: usdcAccountOf(p.config.usdcMint, p.seller),
      treasury: p.config.treasury,
    }),
  ];
}

/** reject: either side ends it; the escrow left goes back to the buyer. */
export function rejectNegotiationInstructions(
  p: NegotiationRef & { config: HaggleConfig; party: PublicKey },
): TransactionInstruction[] {
  checkParty(p.party);
  return [haggle.rejectInstruction({ party: p.party, ...refundAccounts(p) })];
}

/** expire: anyone, after the deadline or a missed response window; refunds the buyer. */
export function expireNegotiationInstructions(p: NegotiationRef & { config: HaggleConfig }): TransactionInstruction[] {
  return [haggle.expireInstruction(refundAccounts(p))];
}

/** The sealed reservation (docs/protocol.md §8 NEGC): SHA-256(price as int128 big-endian || salt). */
export function reservationCommitment(price: bigint, salt: Uint8Array): Uint8Array {
  if (!(salt instanceof Uint8Array) || salt.length !== 32) throw new TypeError('salt must be 32 bytes');
  return makeReservationCommitment(price, salt);
}

/** commit_reservation with a NEGC commitment (32 bytes). Signer: party. */
export function commitReservationInstructions(
  p: NegotiationRef & { party: PublicKey; commitment: Uint8Array },
): TransactionInstruction[] {
  checkParty(p.party);
  if (!(p.commitment instanceof Uint8Array) || p.commitment.length !== 32)
    throw new TypeError('commitment must be 32 bytes');
  return [
    haggle.commitReservationInstruction(
      { party: p.party, negotiation: negotiationAddress(p) },
      { commitment: p.commitment },
    ),
  ];
}

/** reveal_reservation with a NEGR's price and salt; both revealed without a ZOPA refunds and closes. Signer: party. */
export function revealReservationInstructions(
  p: NegotiationRef & { config: HaggleConfig; party: PublicKey; price: bigint; salt: Uint8Array },
): TransactionInstruction[] {
  checkParty(p.party);
  if (typeof p.price !== 'bigint') throw new TypeError('price must be a bigint');
  if (!(p.salt instanceof Uint8Array) || p.salt.length !== 32) throw new TypeError('salt must be 32 bytes');
  return [
    haggle.revealReservationInstruction(
      { party: p.party, ...refundAccounts(p) },
      { price: int128ToBytes(p.price), salt: p.salt },
    ),
  ];
}

/** The live negotiation account (null once it is closed: every terminal state closes it). */
export function decodeNegotiationAccount(data: Uint8Array): haggle.Negotiation | null {
  return data instanceof Uint8Array && data.length > 0 ? haggle.decodeNegotiation(data) : null;
}
