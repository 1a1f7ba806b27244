// Generated from programs/behavior_log/program.json by programs/tools/gen.ts. Do not edit.
/** BehaviorLog (0x01 spec §10.2): one BatchAccount per (agent, epoch), signed by the agent's identity owner over batch_hash through the Ed25519 program. */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('2qQUo1Nn46yoq1rsnvLjttYNv65eCQFDHiwwoXGE4iLT');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"config"] of behavior_log. */
export function findConfigPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('config')], programId);
}

/** PDA [b"batch", agent, epoch u64 LE] of behavior_log. */
export function findBatchPda(agent: PublicKey, epoch: bigint, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('batch'), agent.toBytes(), u64le(epoch)], programId);
}

/** Program configuration, PDA [b"config"] */
export interface Config {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
  bump: number;
}
export const CONFIG_DISCRIMINATOR = Uint8Array.from([0x9b, 0x0c, 0xaa, 0xe0, 0x1e, 0xfa, 0xcc, 0x82]);
export const CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }, { name: 'bump', type: 'u8' }, { name: 'pad', type: 'pad7' }];
export const CONFIG_SIZE = 120;
export function encodeConfig(v: Config): Uint8Array {
  return encodeFields(CONFIG_DISCRIMINATOR, CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeConfig(data: Uint8Array): Config | null {
  return hasDiscriminator(data, CONFIG_DISCRIMINATOR) ? decodeFields<Config>(data, 8, CONFIG_FIELDS, true) : null;
}

/** An agent's committed BehaviorBatch for one epoch, PDA [b"batch", agent, epoch u64 LE] */
export interface BatchAccount {
  agent: PublicKey;
  signer: PublicKey;
  epoch: bigint;
  batchHash: Uint8Array;
  logMerkleRoot: Uint8Array;
  submittedSlot: bigint;
  messageCount: bigint;
  bidCount: number;
  taskCount: number;
  verifierCount: number;
  feedbackCount: number;
  overflow: number;
  bump: number;
}
export const BATCH_ACCOUNT_DISCRIMINATOR = Uint8Array.from([0x81, 0x83, 0x36, 0x63, 0xb4, 0xed, 0x65, 0x43]);
export const BATCH_ACCOUNT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'signer', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'batchHash', type: 'bytes32' }, { name: 'logMerkleRoot', type: 'bytes32' }, { name: 'submittedSlot', type: 'u64' }, { name: 'messageCount', type: 'u64' }, { name: 'bidCount', type: 'u32' }, { name: 'taskCount', type: 'u32' }, { name: 'verifierCount', type: 'u32' }, { name: 'feedbackCount', type: 'u32' }, { name: 'overflow', type: 'u8' }, { name: 'bump', type: 'u8' }, { name: 'pad', type: 'pad6' }];
export const BATCH_ACCOUNT_SIZE = 184;
export function encodeBatchAccount(v: BatchAccount): Uint8Array {
  return encodeFields(BATCH_ACCOUNT_DISCRIMINATOR, BATCH_ACCOUNT_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeBatchAccount(data: Uint8Array): BatchAccount | null {
  return hasDiscriminator(data, BATCH_ACCOUNT_DISCRIMINATOR) ? decodeFields<BatchAccount>(data, 8, BATCH_ACCOUNT_FIELDS, true) : null;
}

export interface InitializedEvent {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
}
export const INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0xd0, 0xd5, 0x73, 0x62, 0x73, 0x52, 0xc9, 0xd1]);
export const INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }];
export function encodeInitializedEvent(v: InitializedEvent): Uint8Array {
  return encodeFields(INITIALIZED_EVENT_DISCRIMINATOR, INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface BatchSubmittedEvent {
  agent: PublicKey;
  signer: PublicKey;
  batch: PublicKey;
  epoch: bigint;
  batchHash: Uint8Array;
  logMerkleRoot: Uint8Array;
  slot: bigint;
  messageCount: bigint;
  bidCount: number;
  taskCount: number;
  verifierCount: number;
  feedbackCount: number;
  overflow: number;
}
export const BATCH_SUBMITTED_EVENT_DISCRIMINATOR = Uint8Array.from([0x90, 0x37, 0x10, 0x69, 0x88, 0xfd, 0xe1, 0x5a]);
export const BATCH_SUBMITTED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'signer', type: 'pubkey' }, { name: 'batch', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'batchHash', type: 'bytes32' }, { name: 'logMerkleRoot', type: 'bytes32' }, { name: 'slot', type: 'u64' }, { name: 'messageCount', type: 'u64' }, { name: 'bidCount', type: 'u32' }, { name: 'taskCount', type: 'u32' }, { name: 'verifierCount', type: 'u32' }, { name: 'feedbackCount', type: 'u32' }, { name: 'overflow', type: 'u8' }, { name: 'pad', type: 'pad7' }];
export function encodeBatchSubmittedEvent(v: BatchSubmittedEvent): Uint8Array {
  return encodeFields(BATCH_SUBMITTED_EVENT_DISCRIMINATOR, BATCH_SUBMITTED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export type Event = { name: 'Initialized'; data: InitializedEvent } | { name: 'BatchSubmitted'; data: BatchSubmittedEvent };
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  if (hasDiscriminator(data, INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<InitializedEvent>(data, 8, INITIALIZED_EVENT_FIELDS); return d ? { name: 'Initialized', data: d } : null; }
  if (hasDiscriminator(data, BATCH_SUBMITTED_EVENT_DISCRIMINATOR)) { const d = decodeFields<BatchSubmittedEvent>(data, 8, BATCH_SUBMITTED_EVENT_FIELDS); return d ? { name: 'BatchSubmitted', data: d } : null; }
  return null;
}

export const IX_INITIALIZE = 0;
export const INITIALIZE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }];
export interface InitializeArgs {
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
}
export interface InitializeAccounts {
  admin: PublicKey; // pays and becomes admin
  config?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of initialize: tag 0 then the fixed little-endian args. */
export function encodeInitializeArgs(args: InitializeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(0), INITIALIZE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeInitializeArgs(data: Uint8Array): InitializeArgs | null {
  return data[0] === 0 ? decodeFields<InitializeArgs>(data, 1, INITIALIZE_ARGS_FIELDS) : null;
}
/** Creates the Config PDA (once). */
export function initializeInstruction(accounts: InitializeAccounts, args: InitializeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.admin, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeInitializeArgs(args)),
  });
}

export const IX_SUBMIT_BATCH = 1;
export const SUBMIT_BATCH_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'epoch', type: 'u64' }, { name: 'batchHash', type: 'bytes32' }, { name: 'logMerkleRoot', type: 'bytes32' }, { name: 'messageCount', type: 'u64' }, { name: 'bidCount', type: 'u32' }, { name: 'taskCount', type: 'u32' }, { name: 'verifierCount', type: 'u32' }, { name: 'feedbackCount', type: 'u32' }, { name: 'overflow', type: 'u8' }, { name: 'bump', type: 'u8' }];
export interface SubmitBatchArgs {
  epoch: bigint;
  batchHash: Uint8Array;
  logMerkleRoot: Uint8Array;
  messageCount: bigint;
  bidCount: number;
  taskCount: number;
  verifierCount: number;
  feedbackCount: number;
  overflow: number;
  bump: number;
}
export interface SubmitBatchAccounts {
  payer: PublicKey;
  identity: PublicKey; // Token-2022 account holding the agent's identity NFT; its owner is the batch signer
  config?: PublicKey;
  batch: PublicKey; // PDA [b"batch", agent, epoch]
  instructions?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of submit_batch: tag 1 then the fixed little-endian args. */
export function encodeSubmitBatchArgs(args: SubmitBatchArgs): Uint8Array {
  return encodeFields(Uint8Array.of(1), SUBMIT_BATCH_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeSubmitBatchArgs(data: Uint8Array): SubmitBatchArgs | null {
  return data[0] === 1 ? decodeFields<SubmitBatchArgs>(data, 1, SUBMIT_BATCH_ARGS_FIELDS) : null;
}
/** Creates the BatchAccount for (agent, epoch). An earlier Ed25519 program instruction of the same transaction must verify the identity owner's signature over batch_hash. epoch <= current epoch <= epoch + 1. */
export function submitBatchInstruction(accounts: SubmitBatchAccounts, args: SubmitBatchArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.payer, isSigner: true, isWritable: true },
      { pubkey: accounts.identity, isSigner: false, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.batch, isSigner: false, isWritable: true },
      { pubkey: accounts.instructions ?? new PublicKey('Sysvar1nstructions1111111111111111111111111'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeSubmitBatchArgs(args)),
  });
}

export const ERRORS = {
  AlreadyInitialized: 12289,
  BadConfig: 12290,
  BadPda: 12291,
  NotIdentityOwner: 12292,
  BatchExists: 12293,
  BadSignature: 12294,
  EpochInFuture: 12295,
  EpochTooLate: 12296,
  BadAccount: 12297,
  BadArgument: 12298,
  MissingSigner: 12299,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  12289: "AlreadyInitialized: config already exists",
  12290: "BadConfig: config account is not this program's initialized config PDA",
  12291: "BadPda: account is not the expected PDA",
  12292: "NotIdentityOwner: identity account is not a Token-2022 account holding 1 of the agent mint",
  12293: "BatchExists: a batch for this agent and epoch was already submitted",
  12294: "BadSignature: no Ed25519 program instruction verifies the identity owner's signature over batch_hash",
  12295: "EpochInFuture: batch epoch is after the current epoch",
  12296: "EpochTooLate: batch submitted more than one epoch after its epoch",
  12297: "BadAccount: wrong program or sysvar account",
  12298: "BadArgument: invalid instruction data or argument",
  12299: "MissingSigner: a required signer did not sign",
};
