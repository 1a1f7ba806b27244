// Generated from programs/haggle/program.json by programs/tools/gen.ts. Do not edit.
/** Haggle: on-chain alternating-offers negotiation settlement. The buyer escrows USDC in a per-negotiation vault; every offer burns decay_bps of the escrow to the treasury; an optional sealed-bid commit/reveal ends a negotiation without a ZOPA; an accepted offer pays the seller minus a protocol fee. */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('AMZJUUoaZkGBPu16LExW2KBiheh1bbt35ADZtDyNLZrd');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"config"] of haggle. */
export function findConfigPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('config')], programId);
}

/** PDA [b"negotiation", buyer, seller, conversation_id_lo u64 LE, conversation_id_hi u64 LE] of haggle. */
export function findNegotiationPda(buyer: PublicKey, seller: PublicKey, conversationIdLo: bigint, conversationIdHi: bigint, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('negotiation'), buyer.toBytes(), seller.toBytes(), u64le(conversationIdLo), u64le(conversationIdHi)], programId);
}

/** PDA [b"vault", negotiation] of haggle. */
export function findVaultPda(negotiation: PublicKey, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('vault'), negotiation.toBytes()], programId);
}

/** Config PDA [b"config"]: the escrow mint and the treasury (SPL Token account of that mint) that receives decay and fees. */
export interface HaggleConfig {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  bump: number;
}
export const HAGGLE_CONFIG_DISCRIMINATOR = Uint8Array.from([0xb1, 0x25, 0x39, 0x81, 0xac, 0x87, 0x7e, 0x0a]);
export const HAGGLE_CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'bump', type: 'u8' }, { name: 'Pad', type: 'pad7' }];
export const HAGGLE_CONFIG_SIZE = 112;
export function encodeHaggleConfig(v: HaggleConfig): Uint8Array {
  return encodeFields(HAGGLE_CONFIG_DISCRIMINATOR, HAGGLE_CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeHaggleConfig(data: Uint8Array): HaggleConfig | null {
  return hasDiscriminator(data, HAGGLE_CONFIG_DISCRIMINATOR) ? decodeFields<HaggleConfig>(data, 8, HAGGLE_CONFIG_FIELDS, true) : null;
}

/** Negotiation PDA [b"negotiation", buyer, seller, conversation_id (16 bytes)]. status: 1 created, 2 proposed, 3 countered (4 accepted, 5 settled, 6 expired, 7 rejected only in events: the account closes). Sides: 1 buyer, 2 seller. sealed: bit0 buyer committed, bit1 seller committed, bit2 buyer revealed, bit3 seller revealed. */
export interface Negotiation {
  buyer: PublicKey;
  seller: PublicKey;
  vault: PublicKey;
  conversationId: Uint8Array;
  deposit: bigint;
  escrow: bigint;
  decayed: bigint;
  currentOffer: bigint;
  createdAt: bigint;
  lastActionAt: bigint;
  deadline: bigint;
  responseWindow: number;
  decayBps: number;
  minOfferBps: number;
  protocolFeeBps: number;
  maxRounds: number;
  round: number;
  status: number;
  joined: number;
  opener: number;
  lastOfferBy: number;
  zopaDetection: number;
  sealed: number;
  bump: number;
  vaultBump: number;
  buyerCommitment: Uint8Array;
  sellerCommitment: Uint8Array;
  buyerReservation: Uint8Array;
  sellerReservation: Uint8Array;
}
export const NEGOTIATION_DISCRIMINATOR = Uint8Array.from([0x4d, 0x6a, 0x02, 0x31, 0x92, 0x49, 0xd3, 0x35]);
export const NEGOTIATION_FIELDS: readonly FieldSpec[] = [{ name: 'buyer', type: 'pubkey' }, { name: 'seller', type: 'pubkey' }, { name: 'vault', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'deposit', type: 'u64' }, { name: 'escrow', type: 'u64' }, { name: 'decayed', type: 'u64' }, { name: 'currentOffer', type: 'u64' }, { name: 'createdAt', type: 'i64' }, { name: 'lastActionAt', type: 'i64' }, { name: 'deadline', type: 'i64' }, { name: 'responseWindow', type: 'u32' }, { name: 'decayBps', type: 'u16' }, { name: 'minOfferBps', type: 'u16' }, { name: 'protocolFeeBps', type: 'u16' }, { name: 'maxRounds', type: 'u8' }, { name: 'round', type: 'u8' }, { name: 'status', type: 'u8' }, { name: 'joined', type: 'u8' }, { name: 'opener', type: 'u8' }, { name: 'lastOfferBy', type: 'u8' }, { name: 'zopaDetection', type: 'u8' }, { name: 'sealed', type: 'u8' }, { name: 'bump', type: 'u8' }, { name: 'vaultBump', type: 'u8' }, { name: 'buyerCommitment', type: 'bytes32' }, { name: 'sellerCommitment', type: 'bytes32' }, { name: 'buyerReservation', type: 'bytes16' }, { name: 'sellerReservation', type: 'bytes16' }, { name: 'Pad', type: 'pad4' }];
export const NEGOTIATION_SIZE = 296;
export function encodeNegotiation(v: Negotiation): Uint8Array {
  return encodeFields(NEGOTIATION_DISCRIMINATOR, NEGOTIATION_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeNegotiation(data: Uint8Array): Negotiation | null {
  return hasDiscriminator(data, NEGOTIATION_DISCRIMINATOR) ? decodeFields<Negotiation>(data, 8, NEGOTIATION_FIELDS, true) : null;
}

export interface HaggleInitializedEvent {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
}
export const HAGGLE_INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0x4d, 0x53, 0x43, 0x65, 0xbb, 0x26, 0xc5, 0x2d]);
export const HAGGLE_INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }];
export function encodeHaggleInitializedEvent(v: HaggleInitializedEvent): Uint8Array {
  return encodeFields(HAGGLE_INITIALIZED_EVENT_DISCRIMINATOR, HAGGLE_INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface NegotiationCreatedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  buyer: PublicKey;
  seller: PublicKey;
  deposit: bigint;
  deadline: bigint;
  createdAt: bigint;
  responseWindow: number;
  decayBps: number;
  minOfferBps: number;
  protocolFeeBps: number;
  maxRounds: number;
  zopaDetection: number;
}
export const NEGOTIATION_CREATED_EVENT_DISCRIMINATOR = Uint8Array.from([0x71, 0x42, 0x0f, 0x64, 0x33, 0x50, 0x90, 0x55]);
export const NEGOTIATION_CREATED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'buyer', type: 'pubkey' }, { name: 'seller', type: 'pubkey' }, { name: 'deposit', type: 'u64' }, { name: 'deadline', type: 'i64' }, { name: 'createdAt', type: 'i64' }, { name: 'responseWindow', type: 'u32' }, { name: 'decayBps', type: 'u16' }, { name: 'minOfferBps', type: 'u16' }, { name: 'protocolFeeBps', type: 'u16' }, { name: 'maxRounds', type: 'u8' }, { name: 'zopaDetection', type: 'u8' }];
export function encodeNegotiationCreatedEvent(v: NegotiationCreatedEvent): Uint8Array {
  return encodeFields(NEGOTIATION_CREATED_EVENT_DISCRIMINATOR, NEGOTIATION_CREATED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface NegotiationJoinedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  seller: PublicKey;
  at: bigint;
}
export const NEGOTIATION_JOINED_EVENT_DISCRIMINATOR = Uint8Array.from([0x05, 0xca, 0x43, 0x81, 0x21, 0x7b, 0xa6, 0x92]);
export const NEGOTIATION_JOINED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'seller', type: 'pubkey' }, { name: 'at', type: 'i64' }];
export function encodeNegotiationJoinedEvent(v: NegotiationJoinedEvent): Uint8Array {
  return encodeFields(NEGOTIATION_JOINED_EVENT_DISCRIMINATOR, NEGOTIATION_JOINED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface OfferSubmittedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  amount: bigint;
  decay: bigint;
  escrow: bigint;
  at: bigint;
  side: number;
  round: number;
  status: number;
  metadata: Uint8Array;
}
export const OFFER_SUBMITTED_EVENT_DISCRIMINATOR = Uint8Array.from([0x0e, 0x51, 0xfd, 0xc3, 0x7a, 0xfe, 0x6e, 0xb8]);
export const OFFER_SUBMITTED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'amount', type: 'u64' }, { name: 'decay', type: 'u64' }, { name: 'escrow', type: 'u64' }, { name: 'at', type: 'i64' }, { name: 'side', type: 'u8' }, { name: 'round', type: 'u8' }, { name: 'status', type: 'u8' }, { name: 'metadata', type: 'bytes64' }];
export function encodeOfferSubmittedEvent(v: OfferSubmittedEvent): Uint8Array {
  return encodeFields(OFFER_SUBMITTED_EVENT_DISCRIMINATOR, OFFER_SUBMITTED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface ReservationCommittedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  commitment: Uint8Array;
  side: number;
}
export const RESERVATION_COMMITTED_EVENT_DISCRIMINATOR = Uint8Array.from([0xdf, 0x6c, 0x3c, 0xd1, 0x60, 0xc0, 0x1e, 0xb9]);
export const RESERVATION_COMMITTED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'commitment', type: 'bytes32' }, { name: 'side', type: 'u8' }];
export function encodeReservationCommittedEvent(v: ReservationCommittedEvent): Uint8Array {
  return encodeFields(RESERVATION_COMMITTED_EVENT_DISCRIMINATOR, RESERVATION_COMMITTED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface ReservationRevealedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  price: Uint8Array;
  side: number;
  bothRevealed: number;
  zopa: number;
}
export const RESERVATION_REVEALED_EVENT_DISCRIMINATOR = Uint8Array.from([0xc7, 0x06, 0x18, 0x01, 0x89, 0x3a, 0x17, 0xce]);
export const RESERVATION_REVEALED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'price', type: 'bytes16' }, { name: 'side', type: 'u8' }, { name: 'bothRevealed', type: 'u8' }, { name: 'zopa', type: 'u8' }];
export function encodeReservationRevealedEvent(v: ReservationRevealedEvent): Uint8Array {
  return encodeFields(RESERVATION_REVEALED_EVENT_DISCRIMINATOR, RESERVATION_REVEALED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface OfferAcceptedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  amount: bigint;
  at: bigint;
  side: number;
  round: number;
}
export const OFFER_ACCEPTED_EVENT_DISCRIMINATOR = Uint8Array.from([0x51, 0xee, 0xee, 0x73, 0x8c, 0x12, 0x08, 0x14]);
export const OFFER_ACCEPTED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'amount', type: 'u64' }, { name: 'at', type: 'i64' }, { name: 'side', type: 'u8' }, { name: 'round', type: 'u8' }];
export function encodeOfferAcceptedEvent(v: OfferAcceptedEvent): Uint8Array {
  return encodeFields(OFFER_ACCEPTED_EVENT_DISCRIMINATOR, OFFER_ACCEPTED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface NegotiationSettledEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  buyer: PublicKey;
  seller: PublicKey;
  amount: bigint;
  fee: bigint;
  toSeller: bigint;
  refund: bigint;
  decayed: bigint;
}
export const NEGOTIATION_SETTLED_EVENT_DISCRIMINATOR = Uint8Array.from([0x5c, 0xe6, 0x0a, 0x7a, 0x29, 0x78, 0x44, 0x52]);
export const NEGOTIATION_SETTLED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'buyer', type: 'pubkey' }, { name: 'seller', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'fee', type: 'u64' }, { name: 'toSeller', type: 'u64' }, { name: 'refund', type: 'u64' }, { name: 'decayed', type: 'u64' }];
export function encodeNegotiationSettledEvent(v: NegotiationSettledEvent): Uint8Array {
  return encodeFields(NEGOTIATION_SETTLED_EVENT_DISCRIMINATOR, NEGOTIATION_SETTLED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface NegotiationRefundedEvent {
  negotiation: PublicKey;
  conversationId: Uint8Array;
  buyer: PublicKey;
  refund: bigint;
  decayed: bigint;
  at: bigint;
  status: number;
  reason: number;
  side: number;
}
export const NEGOTIATION_REFUNDED_EVENT_DISCRIMINATOR = Uint8Array.from([0xfe, 0x53, 0xdf, 0x48, 0x56, 0x8d, 0xce, 0x06]);
export const NEGOTIATION_REFUNDED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'negotiation', type: 'pubkey' }, { name: 'conversationId', type: 'bytes16' }, { name: 'buyer', type: 'pubkey' }, { name: 'refund', type: 'u64' }, { name: 'decayed', type: 'u64' }, { name: 'at', type: 'i64' }, { name: 'status', type: 'u8' }, { name: 'reason', type: 'u8' }, { name: 'side', type: 'u8' }];
export function encodeNegotiationRefundedEvent(v: NegotiationRefundedEvent): Uint8Array {
  return encodeFields(NEGOTIATION_REFUNDED_EVENT_DISCRIMINATOR, NEGOTIATION_REFUNDED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export type Event = { name: 'HaggleInitialized'; data: HaggleInitializedEvent } | { name: 'NegotiationCreated'; data: NegotiationCreatedEvent } | { name: 'NegotiationJoined'; data: NegotiationJoinedEvent } | { name: 'OfferSubmitted'; data: OfferSubmittedEvent } | { name: 'ReservationCommitted'; data: ReservationCommittedEvent } | { name: 'ReservationRevealed'; data: ReservationRevealedEvent } | { name: 'OfferAccepted'; data: OfferAcceptedEvent } | { name: 'NegotiationSettled'; data: NegotiationSettledEvent } | { name: 'NegotiationRefunded'; data: NegotiationRefundedEvent };
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  if (hasDiscriminator(data, HAGGLE_INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<HaggleInitializedEvent>(data, 8, HAGGLE_INITIALIZED_EVENT_FIELDS); return d ? { name: 'HaggleInitialized', data: d } : null; }
  if (hasDiscriminator(data, NEGOTIATION_CREATED_EVENT_DISCRIMINATOR)) { const d = decodeFields<NegotiationCreatedEvent>(data, 8, NEGOTIATION_CREATED_EVENT_FIELDS); return d ? { name: 'NegotiationCreated', data: d } : null; }
  if (hasDiscriminator(data, NEGOTIATION_JOINED_EVENT_DISCRIMINATOR)) { const d = decodeFields<NegotiationJoinedEvent>(data, 8, NEGOTIATION_JOINED_EVENT_FIELDS); return d ? { name: 'NegotiationJoined', data: d } : null; }
  if (hasDiscriminator(data, OFFER_SUBMITTED_EVENT_DISCRIMINATOR)) { const d = decodeFields<OfferSubmittedEvent>(data, 8, OFFER_SUBMITTED_EVENT_FIELDS); return d ? { name: 'OfferSubmitted', data: d } : null; }
  if (hasDiscriminator(data, RESERVATION_COMMITTED_EVENT_DISCRIMINATOR)) { const d = decodeFields<ReservationCommittedEvent>(data, 8, RESERVATION_COMMITTED_EVENT_FIELDS); return d ? { name: 'ReservationCommitted', data: d } : null; }
  if (hasDiscriminator(data, RESERVATION_REVEALED_EVENT_DISCRIMINATOR)) { const d = decodeFields<ReservationRevealedEvent>(data, 8, RESERVATION_REVEALED_EVENT_FIELDS); return d ? { name: 'ReservationRevealed', data: d } : null; }
  if (hasDiscriminator(data, OFFER_ACCEPTED_EVENT_DISCRIMINATOR)) { const d = decodeFields<OfferAcceptedEvent>(data, 8, OFFER_ACCEPTED_EVENT_FIELDS); return d ? { name: 'OfferAccepted', data: d } : null; }
  if (hasDiscriminator(data, NEGOTIATION_SETTLED_EVENT_DISCRIMINATOR)) { const d = decodeFields<NegotiationSettledEvent>(data, 8, NEGOTIATION_SETTLED_EVENT_FIELDS); return d ? { name: 'NegotiationSettled', data: d } : null; }
  if (hasDiscriminator(data, NEGOTIATION_REFUNDED_EVENT_DISCRIMINATOR)) { const d = decodeFields<NegotiationRefundedEvent>(data, 8, NEGOTIATION_REFUNDED_EVENT_FIELDS); return d ? { name: 'NegotiationRefunded', data: d } : null; }
  return null;
}

export const IX_INITIALIZE = 0;
export const INITIALIZE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface InitializeArgs {

}
export interface InitializeAccounts {
  admin: PublicKey;
  config?: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey; // SPL Token account of usdc_mint
  systemProgram?: PublicKey;
}
/** Instruction data of initialize: tag 0 then the fixed little-endian args. */
export function encodeInitializeArgs(args: InitializeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(0), INITIALIZE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeInitializeArgs(data: Uint8Array): InitializeArgs | null {
  return data[0] === 0 ? decodeFields<InitializeArgs>(data, 1, INITIALIZE_ARGS_FIELDS) : null;
}
/** Creates the Config PDA once: the escrow (USDC) mint and the treasury token account. */
export function initializeInstruction(accounts: InitializeAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.admin, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.usdcMint, isSigner: false, isWritable: false },
      { pubkey: accounts.treasury, isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeInitializeArgs({} as InitializeArgs)),
  });
}

export const IX_CREATE_NEGOTIATION = 1;
export const CREATE_NEGOTIATION_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'conversationId', type: 'bytes16' }, { name: 'deposit', type: 'u64' }, { name: 'deadline', type: 'i64' }, { name: 'responseWindow', type: 'u32' }, { name: 'decayBps', type: 'u16' }, { name: 'minOfferBps', type: 'u16' }, { name: 'protocolFeeBps', type: 'u16' }, { name: 'maxRounds', type: 'u8' }, { name: 'zopaDetection', type: 'u8' }];
export interface CreateNegotiationArgs {
  conversationId: Uint8Array;
  deposit: bigint;
  deadline: bigint;
  responseWindow: number;
  decayBps: number;
  minOfferBps: number;
  protocolFeeBps: number;
  maxRounds: number;
  zopaDetection: number;
}
export interface CreateNegotiationAccounts {
  buyer: PublicKey;
  config?: PublicKey;
  seller: PublicKey;
  negotiation: PublicKey;
  vault: PublicKey; // PDA [b"vault", negotiation], created here as an SPL Token account
  buyerUsdc: PublicKey;
  usdcMint: PublicKey;
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of create_negotiation: tag 1 then the fixed little-endian args. */
export function encodeCreateNegotiationArgs(args: CreateNegotiationArgs): Uint8Array {
  return encodeFields(Uint8Array.of(1), CREATE_NEGOTIATION_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeCreateNegotiationArgs(data: Uint8Array): CreateNegotiationArgs | null {
  return data[0] === 1 ? decodeFields<CreateNegotiationArgs>(data, 1, CREATE_NEGOTIATION_ARGS_FIELDS) : null;
}
/** The buyer opens a negotiation with a seller for a 0x01 conversation and deposits the escrow into the negotiation's vault. */
export function createNegotiationInstruction(accounts: CreateNegotiationAccounts, args: CreateNegotiationArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.buyer, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.seller, isSigner: false, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.buyerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.usdcMint, isSigner: false, isWritable: false },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeCreateNegotiationArgs(args)),
  });
}

export const IX_ACCEPT_NEGOTIATION = 2;
export const ACCEPT_NEGOTIATION_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface AcceptNegotiationArgs {

}
export interface AcceptNegotiationAccounts {
  seller: PublicKey;
  negotiation: PublicKey;
}
/** Instruction data of accept_negotiation: tag 2 then the fixed little-endian args. */
export function encodeAcceptNegotiationArgs(args: AcceptNegotiationArgs): Uint8Array {
  return encodeFields(Uint8Array.of(2), ACCEPT_NEGOTIATION_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeAcceptNegotiationArgs(data: Uint8Array): AcceptNegotiationArgs | null {
  return data[0] === 2 ? decodeFields<AcceptNegotiationArgs>(data, 1, ACCEPT_NEGOTIATION_ARGS_FIELDS) : null;
}
/** The seller joins the negotiation; offers are possible from then on. */
export function acceptNegotiationInstruction(accounts: AcceptNegotiationAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.seller, isSigner: true, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeAcceptNegotiationArgs({} as AcceptNegotiationArgs)),
  });
}

export const IX_SUBMIT_OFFER = 3;
export const SUBMIT_OFFER_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'amount', type: 'u64' }, { name: 'metadata', type: 'bytes64' }];
export interface SubmitOfferArgs {
  amount: bigint;
  metadata: Uint8Array;
}
export interface SubmitOfferAccounts {
  party: PublicKey;
  config?: PublicKey;
  negotiation: PublicKey;
  vault: PublicKey;
  treasury: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of submit_offer: tag 3 then the fixed little-endian args. */
export function encodeSubmitOfferArgs(args: SubmitOfferArgs): Uint8Array {
  return encodeFields(Uint8Array.of(3), SUBMIT_OFFER_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeSubmitOfferArgs(data: Uint8Array): SubmitOfferArgs | null {
  return data[0] === 3 ? decodeFields<SubmitOfferArgs>(data, 1, SUBMIT_OFFER_ARGS_FIELDS) : null;
}
/** An offer by the side whose turn it is; the round's decay moves from the vault to the treasury. */
export function submitOfferInstruction(accounts: SubmitOfferAccounts, args: SubmitOfferArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.party, isSigner: true, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeSubmitOfferArgs(args)),
  });
}

export const IX_COMMIT_RESERVATION = 4;
export const COMMIT_RESERVATION_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'commitment', type: 'bytes32' }];
export interface CommitReservationArgs {
  commitment: Uint8Array;
}
export interface CommitReservationAccounts {
  party: PublicKey;
  negotiation: PublicKey;
}
/** Instruction data of commit_reservation: tag 4 then the fixed little-endian args. */
export function encodeCommitReservationArgs(args: CommitReservationArgs): Uint8Array {
  return encodeFields(Uint8Array.of(4), COMMIT_RESERVATION_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeCommitReservationArgs(data: Uint8Array): CommitReservationArgs | null {
  return data[0] === 4 ? decodeFields<CommitReservationArgs>(data, 1, COMMIT_RESERVATION_ARGS_FIELDS) : null;
}
/** Seals a reservation price: SHA-256(price as 16-byte big-endian two's complement || 32-byte salt), as a NEGC payload. */
export function commitReservationInstruction(accounts: CommitReservationAccounts, args: CommitReservationArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.party, isSigner: true, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeCommitReservationArgs(args)),
  });
}

export const IX_REVEAL_RESERVATION = 5;
export const REVEAL_RESERVATION_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'price', type: 'bytes16' }, { name: 'salt', type: 'bytes32' }];
export interface RevealReservationArgs {
  price: Uint8Array;
  salt: Uint8Array;
}
export interface RevealReservationAccounts {
  party: PublicKey;
  negotiation: PublicKey;
  vault: PublicKey;
  buyer: PublicKey;
  buyerUsdc: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of reveal_reservation: tag 5 then the fixed little-endian args. */
export function encodeRevealReservationArgs(args: RevealReservationArgs): Uint8Array {
  return encodeFields(Uint8Array.of(5), REVEAL_RESERVATION_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeRevealReservationArgs(data: Uint8Array): RevealReservationArgs | null {
  return data[0] === 5 ? decodeFields<RevealReservationArgs>(data, 1, REVEAL_RESERVATION_ARGS_FIELDS) : null;
}
/** Opens the commitment (as a NEGR payload) once both sides committed; both revealed with buyer max < seller min ends the negotiation with a refund. */
export function revealReservationInstruction(accounts: RevealReservationAccounts, args: RevealReservationArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.party, isSigner: true, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.buyer, isSigner: false, isWritable: true },
      { pubkey: accounts.buyerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeRevealReservationArgs(args)),
  });
}

export const IX_ACCEPT_OFFER = 6;
export const ACCEPT_OFFER_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface AcceptOfferArgs {

}
export interface AcceptOfferAccounts {
  party: PublicKey;
  config?: PublicKey;
  negotiation: PublicKey;
  vault: PublicKey;
  buyer: PublicKey;
  buyerUsdc: PublicKey;
  sellerUsdc: PublicKey;
  treasury: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of accept_offer: tag 6 then the fixed little-endian args. */
export function encodeAcceptOfferArgs(args: AcceptOfferArgs): Uint8Array {
  return encodeFields(Uint8Array.of(6), ACCEPT_OFFER_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeAcceptOfferArgs(data: Uint8Array): AcceptOfferArgs | null {
  return data[0] === 6 ? decodeFields<AcceptOfferArgs>(data, 1, ACCEPT_OFFER_ARGS_FIELDS) : null;
}
/** The other side accepts the standing offer: amount minus fee to the seller, fee to the treasury, the rest of the escrow and all rent to the buyer; closes the negotiation. */
export function acceptOfferInstruction(accounts: AcceptOfferAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.party, isSigner: true, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.buyer, isSigner: false, isWritable: true },
      { pubkey: accounts.buyerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.sellerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeAcceptOfferArgs({} as AcceptOfferArgs)),
  });
}

export const IX_REJECT = 7;
export const REJECT_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface RejectArgs {

}
export interface RejectAccounts {
  party: PublicKey;
  negotiation: PublicKey;
  vault: PublicKey;
  buyer: PublicKey;
  buyerUsdc: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of reject: tag 7 then the fixed little-endian args. */
export function encodeRejectArgs(args: RejectArgs): Uint8Array {
  return encodeFields(Uint8Array.of(7), REJECT_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeRejectArgs(data: Uint8Array): RejectArgs | null {
  return data[0] === 7 ? decodeFields<RejectArgs>(data, 1, REJECT_ARGS_FIELDS) : null;
}
/** Either side ends the negotiation; the escrow left after decay and all rent go back to the buyer. */
export function rejectInstruction(accounts: RejectAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.party, isSigner: true, isWritable: false },
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.buyer, isSigner: false, isWritable: true },
      { pubkey: accounts.buyerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeRejectArgs({} as RejectArgs)),
  });
}

export const IX_EXPIRE = 8;
export const EXPIRE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface ExpireArgs {

}
export interface ExpireAccounts {
  negotiation: PublicKey;
  vault: PublicKey;
  buyer: PublicKey;
  buyerUsdc: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of expire: tag 8 then the fixed little-endian args. */
export function encodeExpireArgs(args: ExpireArgs): Uint8Array {
  return encodeFields(Uint8Array.of(8), EXPIRE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeExpireArgs(data: Uint8Array): ExpireArgs | null {
  return data[0] === 8 ? decodeFields<ExpireArgs>(data, 1, EXPIRE_ARGS_FIELDS) : null;
}
/** Anyone, after the deadline or a missed response window: refunds the buyer and closes the negotiation. */
export function expireInstruction(accounts: ExpireAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.negotiation, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.buyer, isSigner: false, isWritable: true },
      { pubkey: accounts.buyerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeExpireArgs({} as ExpireArgs)),
  });
}

export const ERRORS = {
  InvalidInstruction: 20480,
  NotEnoughAccounts: 20481,
  MissingSignature: 20482,
  WrongPda: 20483,
  AlreadyInitialized: 20484,
  NotInitialized: 20485,
  WrongProgram: 20486,
  WrongMint: 20487,
  WrongTreasury: 20488,
  WrongVault: 20489,
  WrongTokenOwner: 20490,
  NotWritable: 20491,
  InvalidParameters: 20492,
  ZeroDeposit: 20493,
  InsufficientUsdc: 20494,
  SameParty: 20495,
  AlreadyExists: 20496,
  NoNegotiation: 20497,
  NotSeller: 20498,
  AlreadyJoined: 20499,
  NotJoined: 20500,
  NotParty: 20501,
  WrongSide: 20502,
  OfferBelowMinimum: 20503,
  OfferAboveEscrow: 20504,
  DeadlinePassed: 20505,
  ResponseWindowMissed: 20506,
  MaxRoundsReached: 20507,
  NoOffer: 20508,
  ZopaDisabled: 20509,
  AlreadyCommitted: 20510,
  NotBothCommitted: 20511,
  AlreadyRevealed: 20512,
  RevealMismatch: 20513,
  NotExpired: 20514,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  20480: "InvalidInstruction: unknown tag or wrong instruction data length",
  20481: "NotEnoughAccounts: fewer accounts than the instruction needs",
  20482: "MissingSignature: a required signer did not sign",
  20483: "WrongPda: an account is not the expected PDA of this program",
  20484: "AlreadyInitialized: the config already exists",
  20485: "NotInitialized: the config account is missing or not this program's",
  20486: "WrongProgram: a program account is not the expected program",
  20487: "WrongMint: a token account or mint is not the configured USDC mint",
  20488: "WrongTreasury: treasury is not the configured treasury",
  20489: "WrongVault: the vault is not this negotiation's vault",
  20490: "WrongTokenOwner: a payout token account is not owned by the buyer or seller",
  20491: "NotWritable: an account that must be writable is not",
  20492: "InvalidParameters: max_rounds, decay_bps, response_window, deadline, min_offer_bps, protocol_fee_bps or zopa_detection out of range",
  20493: "ZeroDeposit: the escrow deposit is zero",
  20494: "InsufficientUsdc: the buyer's USDC account holds less than the deposit",
  20495: "SameParty: buyer and seller are the same key",
  20496: "AlreadyExists: a negotiation for this buyer, seller and conversation exists",
  20497: "NoNegotiation: the negotiation account does not exist or is not this program's (closed, settled)",
  20498: "NotSeller: only the seller may accept the negotiation",
  20499: "AlreadyJoined: the seller already accepted the negotiation",
  20500: "NotJoined: the seller has not accepted the negotiation yet",
  20501: "NotParty: the signer is neither the buyer nor the seller",
  20502: "WrongSide: it is the other side's turn",
  20503: "OfferBelowMinimum: offer below min_offer_bps of the deposit",
  20504: "OfferAboveEscrow: offer above the escrow left after this round's decay",
  20505: "DeadlinePassed: the global deadline has passed",
  20506: "ResponseWindowMissed: the response window since the last action has passed",
  20507: "MaxRoundsReached: max_rounds offers were made",
  20508: "NoOffer: there is no standing offer to accept",
  20509: "ZopaDisabled: the negotiation was created without zopa_detection",
  20510: "AlreadyCommitted: this side already committed a reservation",
  20511: "NotBothCommitted: both sides must commit before either reveals",
  20512: "AlreadyRevealed: this side already revealed",
  20513: "RevealMismatch: SHA-256(price || salt) is not the committed value",
  20514: "NotExpired: neither the deadline nor the response window has passed",
};
