// Generated from programs/challenge/program.json by programs/tools/gen.ts. Do not edit.
/** Challenge (0x01 spec §10.4, §8.6): stake CHALLENGE_STAKE against a committed batch; after the window, anyone resolves it from a staged buffer (log entry, payload, merkle proof, batch bytes). */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('CrCH2s2zmZPr3QYLzKsZoGewB97vcbo4kQMaqZ5QBzuQ');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"config"] of challenge. */
export function findConfigPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('config')], programId);
}

/** PDA [b"vault"] of challenge. */
export function findVaultPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('vault')], programId);
}

/** PDA [b"slasher"] of challenge. */
export function findSlasherPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('slasher')], programId);
}

/** PDA [b"agent", agent] of challenge. */
export function findAgentPda(agent: PublicKey, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('agent'), agent.toBytes()], programId);
}

/** PDA [b"challenge", batch, challenger] of challenge. */
export function findChallengePda(batch: PublicKey, challenger: PublicKey, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('challenge'), batch.toBytes(), challenger.toBytes()], programId);
}

/** Program configuration, PDA [b"config"]; also the authority of the stake vault */
export interface Config {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
  vault: PublicKey;
  bump: number;
  vaultBump: number;
  slasherBump: number;
}
export const CONFIG_DISCRIMINATOR = Uint8Array.from([0x9b, 0x0c, 0xaa, 0xe0, 0x1e, 0xfa, 0xcc, 0x82]);
export const CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }, { name: 'vault', type: 'pubkey' }, { name: 'bump', type: 'u8' }, { name: 'vaultBump', type: 'u8' }, { name: 'slasherBump', type: 'u8' }, { name: 'pad', type: 'pad5' }];
export const CONFIG_SIZE = 152;
export function encodeConfig(v: Config): Uint8Array {
  return encodeFields(CONFIG_DISCRIMINATOR, CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeConfig(data: Uint8Array): Config | null {
  return hasDiscriminator(data, CONFIG_DISCRIMINATOR) ? decodeFields<Config>(data, 8, CONFIG_FIELDS, true) : null;
}

/** Per-agent challenge counters, PDA [b"agent", agent]; stake_lock.claim_stake requires pending == 0 */
export interface AgentChallenges {
  agent: PublicKey;
  pending: number;
  total: number;
  upheld: number;
  bump: number;
}
export const AGENT_CHALLENGES_DISCRIMINATOR = Uint8Array.from([0xa4, 0xde, 0xb0, 0xa6, 0x01, 0xcb, 0x22, 0xe4]);
export const AGENT_CHALLENGES_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'pending', type: 'u32' }, { name: 'total', type: 'u32' }, { name: 'upheld', type: 'u32' }, { name: 'bump', type: 'u8' }, { name: 'pad', type: 'pad3' }];
export const AGENT_CHALLENGES_SIZE = 56;
export function encodeAgentChallenges(v: AgentChallenges): Uint8Array {
  return encodeFields(AGENT_CHALLENGES_DISCRIMINATOR, AGENT_CHALLENGES_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeAgentChallenges(data: Uint8Array): AgentChallenges | null {
  return hasDiscriminator(data, AGENT_CHALLENGES_DISCRIMINATOR) ? decodeFields<AgentChallenges>(data, 8, AGENT_CHALLENGES_FIELDS, true) : null;
}

/** One challenge of a batch by a challenger, PDA [b"challenge", batch, challenger]; status 0 pending, 1 upheld (slashed), 2 rejected, 3 void (overflowed batch), 4 expired */
export interface Challenge {
  challenger: PublicKey;
  challengerUsdc: PublicKey;
  batch: PublicKey;
  agent: PublicKey;
  epoch: bigint;
  leaf: Uint8Array;
  submittedSlot: bigint;
  resolvedSlot: bigint;
  stake: bigint;
  status: number;
  reason: number;
  bump: number;
}
export const CHALLENGE_DISCRIMINATOR = Uint8Array.from([0x77, 0xfa, 0xa1, 0x79, 0x77, 0x51, 0x16, 0xd0]);
export const CHALLENGE_FIELDS: readonly FieldSpec[] = [{ name: 'challenger', type: 'pubkey' }, { name: 'challengerUsdc', type: 'pubkey' }, { name: 'batch', type: 'pubkey' }, { name: 'agent', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'leaf', type: 'bytes32' }, { name: 'submittedSlot', type: 'u64' }, { name: 'resolvedSlot', type: 'u64' }, { name: 'stake', type: 'u64' }, { name: 'status', type: 'u8' }, { name: 'reason', type: 'u8' }, { name: 'bump', type: 'u8' }, { name: 'pad', type: 'pad5' }];
export const CHALLENGE_SIZE = 208;
export function encodeChallenge(v: Challenge): Uint8Array {
  return encodeFields(CHALLENGE_DISCRIMINATOR, CHALLENGE_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeChallenge(data: Uint8Array): Challenge | null {
  return hasDiscriminator(data, CHALLENGE_DISCRIMINATOR) ? decodeFields<Challenge>(data, 8, CHALLENGE_FIELDS, true) : null;
}

/** Staging account created by the client (System createAccount, owner = challenge) and written in chunks; data after this header: u32 entry_len, entry, u32 payload_len, payload, u32 leaf_index, u8 depth, depth x 32-byte siblings, then the batch's canonical CBOR up to len */
export interface Buffer {
  authority: PublicKey;
  len: number;
}
export const BUFFER_DISCRIMINATOR = Uint8Array.from([0x73, 0x05, 0xd4, 0xc0, 0x55, 0x1e, 0x2e, 0x29]);
export const BUFFER_FIELDS: readonly FieldSpec[] = [{ name: 'authority', type: 'pubkey' }, { name: 'len', type: 'u32' }, { name: 'pad', type: 'pad4' }];
export const BUFFER_SIZE = 48;
export function encodeBuffer(v: Buffer): Uint8Array {
  return encodeFields(BUFFER_DISCRIMINATOR, BUFFER_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeBuffer(data: Uint8Array): Buffer | null {
  return hasDiscriminator(data, BUFFER_DISCRIMINATOR) ? decodeFields<Buffer>(data, 8, BUFFER_FIELDS, true) : null;
}

export interface InitializedEvent {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  vault: PublicKey;
  epochSeconds: bigint;
}
export const INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0xd0, 0xd5, 0x73, 0x62, 0x73, 0x52, 0xc9, 0xd1]);
export const INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'vault', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }];
export function encodeInitializedEvent(v: InitializedEvent): Uint8Array {
  return encodeFields(INITIALIZED_EVENT_DISCRIMINATOR, INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface BufferInitializedEvent {
  buffer: PublicKey;
  authority: PublicKey;
  len: number;
}
export const BUFFER_INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0xa1, 0x0f, 0x98, 0x31, 0xd8, 0x66, 0x9b, 0x34]);
export const BUFFER_INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'buffer', type: 'pubkey' }, { name: 'authority', type: 'pubkey' }, { name: 'len', type: 'u32' }, { name: 'pad', type: 'pad4' }];
export function encodeBufferInitializedEvent(v: BufferInitializedEvent): Uint8Array {
  return encodeFields(BUFFER_INITIALIZED_EVENT_DISCRIMINATOR, BUFFER_INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface BufferWrittenEvent {
  buffer: PublicKey;
  offset: number;
  len: number;
}
export const BUFFER_WRITTEN_EVENT_DISCRIMINATOR = Uint8Array.from([0xe4, 0x00, 0xda, 0xf2, 0x4f, 0x8a, 0x56, 0xc3]);
export const BUFFER_WRITTEN_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'buffer', type: 'pubkey' }, { name: 'offset', type: 'u32' }, { name: 'len', type: 'u32' }];
export function encodeBufferWrittenEvent(v: BufferWrittenEvent): Uint8Array {
  return encodeFields(BUFFER_WRITTEN_EVENT_DISCRIMINATOR, BUFFER_WRITTEN_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface BufferClosedEvent {
  buffer: PublicKey;
  authority: PublicKey;
}
export const BUFFER_CLOSED_EVENT_DISCRIMINATOR = Uint8Array.from([0xc7, 0xdc, 0xe8, 0x8e, 0xa9, 0x1c, 0x2d, 0xf7]);
export const BUFFER_CLOSED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'buffer', type: 'pubkey' }, { name: 'authority', type: 'pubkey' }];
export function encodeBufferClosedEvent(v: BufferClosedEvent): Uint8Array {
  return encodeFields(BUFFER_CLOSED_EVENT_DISCRIMINATOR, BUFFER_CLOSED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface ChallengeSubmittedEvent {
  challenge: PublicKey;
  challenger: PublicKey;
  agent: PublicKey;
  batch: PublicKey;
  epoch: bigint;
  leaf: Uint8Array;
  stake: bigint;
  slot: bigint;
  pending: number;
}
export const CHALLENGE_SUBMITTED_EVENT_DISCRIMINATOR = Uint8Array.from([0x83, 0x03, 0xed, 0xd1, 0x08, 0x4d, 0xa1, 0x84]);
export const CHALLENGE_SUBMITTED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'challenge', type: 'pubkey' }, { name: 'challenger', type: 'pubkey' }, { name: 'agent', type: 'pubkey' }, { name: 'batch', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'leaf', type: 'bytes32' }, { name: 'stake', type: 'u64' }, { name: 'slot', type: 'u64' }, { name: 'pending', type: 'u32' }, { name: 'pad', type: 'pad4' }];
export function encodeChallengeSubmittedEvent(v: ChallengeSubmittedEvent): Uint8Array {
  return encodeFields(CHALLENGE_SUBMITTED_EVENT_DISCRIMINATOR, CHALLENGE_SUBMITTED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface ChallengeResolvedEvent {
  challenge: PublicKey;
  challenger: PublicKey;
  agent: PublicKey;
  batch: PublicKey;
  epoch: bigint;
  slot: bigint;
  stakeReturned: bigint;
  stakeToTreasury: bigint;
  pending: number;
  status: number;
  reason: number;
}
export const CHALLENGE_RESOLVED_EVENT_DISCRIMINATOR = Uint8Array.from([0x64, 0x99, 0x26, 0x7b, 0xac, 0xfa, 0xa6, 0x69]);
export const CHALLENGE_RESOLVED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'challenge', type: 'pubkey' }, { name: 'challenger', type: 'pubkey' }, { name: 'agent', type: 'pubkey' }, { name: 'batch', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'slot', type: 'u64' }, { name: 'stakeReturned', type: 'u64' }, { name: 'stakeToTreasury', type: 'u64' }, { name: 'pending', type: 'u32' }, { name: 'status', type: 'u8' }, { name: 'reason', type: 'u8' }, { name: 'pad', type: 'pad2' }];
export function encodeChallengeResolvedEvent(v: ChallengeResolvedEvent): Uint8Array {
  return encodeFields(CHALLENGE_RESOLVED_EVENT_DISCRIMINATOR, CHALLENGE_RESOLVED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export type Event = { name: 'Initialized'; data: InitializedEvent } | { name: 'BufferInitialized'; data: BufferInitializedEvent } | { name: 'BufferWritten'; data: BufferWrittenEvent } | { name: 'BufferClosed'; data: BufferClosedEvent } | { name: 'ChallengeSubmitted'; data: ChallengeSubmittedEvent } | { name: 'ChallengeResolved'; data: ChallengeResolvedEvent };
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  if (hasDiscriminator(data, INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<InitializedEvent>(data, 8, INITIALIZED_EVENT_FIELDS); return d ? { name: 'Initialized', data: d } : null; }
  if (hasDiscriminator(data, BUFFER_INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<BufferInitializedEvent>(data, 8, BUFFER_INITIALIZED_EVENT_FIELDS); return d ? { name: 'BufferInitialized', data: d } : null; }
  if (hasDiscriminator(data, BUFFER_WRITTEN_EVENT_DISCRIMINATOR)) { const d = decodeFields<BufferWrittenEvent>(data, 8, BUFFER_WRITTEN_EVENT_FIELDS); return d ? { name: 'BufferWritten', data: d } : null; }
  if (hasDiscriminator(data, BUFFER_CLOSED_EVENT_DISCRIMINATOR)) { const d = decodeFields<BufferClosedEvent>(data, 8, BUFFER_CLOSED_EVENT_FIELDS); return d ? { name: 'BufferClosed', data: d } : null; }
  if (hasDiscriminator(data, CHALLENGE_SUBMITTED_EVENT_DISCRIMINATOR)) { const d = decodeFields<ChallengeSubmittedEvent>(data, 8, CHALLENGE_SUBMITTED_EVENT_FIELDS); return d ? { name: 'ChallengeSubmitted', data: d } : null; }
  if (hasDiscriminator(data, CHALLENGE_RESOLVED_EVENT_DISCRIMINATOR)) { const d = decodeFields<ChallengeResolvedEvent>(data, 8, CHALLENGE_RESOLVED_EVENT_FIELDS); return d ? { name: 'ChallengeResolved', data: d } : null; }
  return null;
}

export const IX_INITIALIZE = 0;
export const INITIALIZE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }];
export interface InitializeArgs {
  treasury: PublicKey;
  epochSeconds: bigint;
}
export interface InitializeAccounts {
  admin: PublicKey;
  config?: PublicKey;
  usdcMint: PublicKey;
  vault?: PublicKey;
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of initialize: tag 0 then the fixed little-endian args. */
export function encodeInitializeArgs(args: InitializeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(0), INITIALIZE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeInitializeArgs(data: Uint8Array): InitializeArgs | null {
  return data[0] === 0 ? decodeFields<InitializeArgs>(data, 1, INITIALIZE_ARGS_FIELDS) : null;
}
/** Creates the Config PDA and the stake vault (SPL Token account PDA [b"vault"] owned by the config PDA). */
export function initializeInstruction(accounts: InitializeAccounts, args: InitializeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.admin, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.usdcMint, isSigner: false, isWritable: false },
      { pubkey: accounts.vault ?? findVaultPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeInitializeArgs(args)),
  });
}

export const IX_INIT_BUFFER = 1;
export const INIT_BUFFER_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'len', type: 'u32' }];
export interface InitBufferArgs {
  len: number;
}
export interface InitBufferAccounts {
  authority: PublicKey;
  buffer: PublicKey;
}
/** Instruction data of init_buffer: tag 1 then the fixed little-endian args. */
export function encodeInitBufferArgs(args: InitBufferArgs): Uint8Array {
  return encodeFields(Uint8Array.of(1), INIT_BUFFER_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeInitBufferArgs(data: Uint8Array): InitBufferArgs | null {
  return data[0] === 1 ? decodeFields<InitBufferArgs>(data, 1, INIT_BUFFER_ARGS_FIELDS) : null;
}
/** Claims a zeroed account owned by this program (created by the client, space >= 48 + len) as a buffer of len bytes. */
export function initBufferInstruction(accounts: InitBufferAccounts, args: InitBufferArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.authority, isSigner: true, isWritable: false },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeInitBufferArgs(args)),
  });
}

export const IX_WRITE_BUFFER = 2;
export const WRITE_BUFFER_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'offset', type: 'u32' }];
export interface WriteBufferArgs {
  offset: number;
}
export interface WriteBufferAccounts {
  authority: PublicKey;
  buffer: PublicKey;
}
/** Instruction data of write_buffer: tag 2 then the fixed little-endian args. */
export function encodeWriteBufferArgs(args: WriteBufferArgs): Uint8Array {
  return encodeFields(Uint8Array.of(2), WRITE_BUFFER_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeWriteBufferArgs(data: Uint8Array): WriteBufferArgs | null {
  return data[0] === 2 ? decodeFields<WriteBufferArgs>(data, 1, WRITE_BUFFER_ARGS_FIELDS) : null;
}
/** Writes the bytes that follow the args (instruction data tail) at offset. */
export function writeBufferInstruction(accounts: WriteBufferAccounts, args: WriteBufferArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.authority, isSigner: true, isWritable: false },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeWriteBufferArgs(args)),
  });
}

export const IX_CLOSE_BUFFER = 3;
export const CLOSE_BUFFER_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface CloseBufferArgs {

}
export interface CloseBufferAccounts {
  authority: PublicKey;
  buffer: PublicKey;
}
/** Instruction data of close_buffer: tag 3 then the fixed little-endian args. */
export function encodeCloseBufferArgs(args: CloseBufferArgs): Uint8Array {
  return encodeFields(Uint8Array.of(3), CLOSE_BUFFER_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeCloseBufferArgs(data: Uint8Array): CloseBufferArgs | null {
  return data[0] === 3 ? decodeFields<CloseBufferArgs>(data, 1, CLOSE_BUFFER_ARGS_FIELDS) : null;
}
/** Closes a buffer, its lamports to the authority. */
export function closeBufferInstruction(accounts: CloseBufferAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.authority, isSigner: true, isWritable: true },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeCloseBufferArgs({} as CloseBufferArgs)),
  });
}

export const IX_SUBMIT_CHALLENGE = 4;
export const SUBMIT_CHALLENGE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'leaf', type: 'bytes32' }];
export interface SubmitChallengeArgs {
  leaf: Uint8Array;
}
export interface SubmitChallengeAccounts {
  challenger: PublicKey;
  challengerUsdc: PublicKey; // pays the stake; refunds and rewards go back here
  config?: PublicKey;
  batch: PublicKey; // behavior_log BatchAccount
  challenge: PublicKey; // PDA [b"challenge", batch, challenger]
  agentChallenges: PublicKey; // PDA [b"agent", agent]
  vault?: PublicKey;
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of submit_challenge: tag 4 then the fixed little-endian args. */
export function encodeSubmitChallengeArgs(args: SubmitChallengeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(4), SUBMIT_CHALLENGE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeSubmitChallengeArgs(data: Uint8Array): SubmitChallengeArgs | null {
  return data[0] === 4 ? decodeFields<SubmitChallengeArgs>(data, 1, SUBMIT_CHALLENGE_ARGS_FIELDS) : null;
}
/** Challenges a batch within CHALLENGE_WINDOW_EPOCHS of its epoch, committing to one log entry (its merkle leaf), locking CHALLENGE_STAKE USDC; pending += 1. */
export function submitChallengeInstruction(accounts: SubmitChallengeAccounts, args: SubmitChallengeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.challenger, isSigner: true, isWritable: true },
      { pubkey: accounts.challengerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.batch, isSigner: false, isWritable: false },
      { pubkey: accounts.challenge, isSigner: false, isWritable: true },
      { pubkey: accounts.agentChallenges, isSigner: false, isWritable: true },
      { pubkey: accounts.vault ?? findVaultPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeSubmitChallengeArgs(args)),
  });
}

export const IX_RESOLVE_CHALLENGE = 5;
export const RESOLVE_CHALLENGE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface ResolveChallengeArgs {

}
export interface ResolveChallengeAccounts {
  config?: PublicKey;
  challenge: PublicKey;
  batch: PublicKey;
  buffer: PublicKey; // the challenger's Buffer; closed on success, its lamports to the challenger
  agentChallenges: PublicKey;
  vault?: PublicKey;
  challengerUsdc: PublicKey;
  treasury: PublicKey;
  tokenProgram?: PublicKey;
  instructions?: PublicKey;
  stakeLockProgram?: PublicKey;
  slasher?: PublicKey;
  stakeConfig: PublicKey; // stake_lock PDA [b"config"]
  stake: PublicKey; // stake_lock PDA [b"stake", agent]
  stakeVault: PublicKey;
  stakeVaultAuthority: PublicKey; // stake_lock PDA [b"vault_authority"]
  challenger: PublicKey; // the challenger's wallet (Challenge.challenger): receives the buffer's rent
}
/** Instruction data of resolve_challenge: tag 5 then the fixed little-endian args. */
export function encodeResolveChallengeArgs(args: ResolveChallengeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(5), RESOLVE_CHALLENGE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeResolveChallengeArgs(data: Uint8Array): ResolveChallengeArgs | null {
  return data[0] === 5 ? decodeFields<ResolveChallengeArgs>(data, 1, RESOLVE_CHALLENGE_ARGS_FIELDS) : null;
}
/** After the window, permissionless: checks the staged entry (leaf, merkle inclusion, Ed25519 signature by the batch signer), keccak(batch bytes) == batch_hash, and the contradiction; upheld → stake_lock.slash + stake back, rejected → stake to treasury; pending -= 1; the evidence buffer is closed, its rent to the challenger. */
export function resolveChallengeInstruction(accounts: ResolveChallengeAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.challenge, isSigner: false, isWritable: true },
      { pubkey: accounts.batch, isSigner: false, isWritable: false },
      { pubkey: accounts.buffer, isSigner: false, isWritable: true },
      { pubkey: accounts.agentChallenges, isSigner: false, isWritable: true },
      { pubkey: accounts.vault ?? findVaultPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.challengerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.instructions ?? new PublicKey('Sysvar1nstructions1111111111111111111111111'), isSigner: false, isWritable: false },
      { pubkey: accounts.stakeLockProgram ?? new PublicKey('Av91oDvLR1HGqHwJdatCa8hZiz7ZG7jn5NSYAkdFvv6i'), isSigner: false, isWritable: false },
      { pubkey: accounts.slasher ?? findSlasherPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.stakeConfig, isSigner: false, isWritable: false },
      { pubkey: accounts.stake, isSigner: false, isWritable: true },
      { pubkey: accounts.stakeVault, isSigner: false, isWritable: true },
      { pubkey: accounts.stakeVaultAuthority, isSigner: false, isWritable: false },
      { pubkey: accounts.challenger, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeResolveChallengeArgs({} as ResolveChallengeArgs)),
  });
}

export const IX_EXPIRE_CHALLENGE = 6;
export const EXPIRE_CHALLENGE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface ExpireChallengeArgs {

}
export interface ExpireChallengeAccounts {
  config?: PublicKey;
  challenge: PublicKey;
  agentChallenges: PublicKey;
  vault?: PublicKey;
  treasury: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of expire_challenge: tag 6 then the fixed little-endian args. */
export function encodeExpireChallengeArgs(args: ExpireChallengeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(6), EXPIRE_CHALLENGE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeExpireChallengeArgs(data: Uint8Array): ExpireChallengeArgs | null {
  return data[0] === 6 ? decodeFields<ExpireChallengeArgs>(data, 1, EXPIRE_CHALLENGE_ARGS_FIELDS) : null;
}
/** Permissionless, once 2 x CHALLENGE_WINDOW_EPOCHS have passed after the batch's epoch with the challenge still unresolved: the stake goes to the treasury; pending -= 1. */
export function expireChallengeInstruction(accounts: ExpireChallengeAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.challenge, isSigner: false, isWritable: true },
      { pubkey: accounts.agentChallenges, isSigner: false, isWritable: true },
      { pubkey: accounts.vault ?? findVaultPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeExpireChallengeArgs({} as ExpireChallengeArgs)),
  });
}

export const ERRORS = {
  AlreadyInitialized: 16385,
  BadConfig: 16386,
  BadPda: 16387,
  BadAccount: 16388,
  BadArgument: 16389,
  MissingSigner: 16390,
  BadBuffer: 16391,
  BufferAuthority: 16392,
  BufferRange: 16393,
  BadBatch: 16394,
  WindowClosed: 16395,
  ChallengeExists: 16396,
  InsufficientUsdc: 16397,
  WindowOpen: 16398,
  NotPending: 16399,
  BadEvidence: 16400,
  LeafMismatch: 16401,
  BadProof: 16402,
  BadEntry: 16403,
  BadEntrySignature: 16404,
  PayloadMismatch: 16405,
  BufferHashMismatch: 16406,
  NotExpired: 16407,
  SlashFailed: 16408,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  16385: "AlreadyInitialized: config already exists",
  16386: "BadConfig: config account is not this program's initialized config PDA",
  16387: "BadPda: account is not the expected PDA",
  16388: "BadAccount: wrong program, sysvar, vault, treasury or token account",
  16389: "BadArgument: invalid instruction data or argument",
  16390: "MissingSigner: a required signer did not sign",
  16391: "BadBuffer: not a buffer of this program, already initialized, or too small",
  16392: "BufferAuthority: signer is not the buffer's authority (or the challenger)",
  16393: "BufferRange: write outside the buffer",
  16394: "BadBatch: not a behavior_log BatchAccount",
  16395: "WindowClosed: the challenge window of this batch has closed",
  16396: "ChallengeExists: this challenger already challenged this batch",
  16397: "InsufficientUsdc: the challenger's USDC account cannot pay CHALLENGE_STAKE",
  16398: "WindowOpen: the challenge window is still open: resolve after it",
  16399: "NotPending: the challenge is already resolved or expired",
  16400: "BadEvidence: the buffer's evidence section is malformed",
  16401: "LeafMismatch: keccak(entry) is not the leaf the challenge committed to",
  16402: "BadProof: the merkle proof does not lead to the batch's log_merkle_root",
  16403: "BadEntry: the log entry is not a canonical 12-item envelope array",
  16404: "BadEntrySignature: no Ed25519 program instruction verifies the entry's signature by the batch signer",
  16405: "PayloadMismatch: the supplied payload does not match payload_hash / payload_len",
  16406: "BufferHashMismatch: keccak(batch bytes in the buffer) != batch_hash",
  16407: "NotExpired: the challenge can still be resolved",
  16408: "SlashFailed: the stake_lock slash CPI failed",
};
