// Generated from programs/lease/program.json by programs/tools/gen.ts. Do not edit.
/** Lease (0x01 spec §10.3): agents pay LEASE_COST_PER_EPOCH USDC per epoch to the treasury; a permissionless tick moves unpaid agents to grace, then deactivated after GRACE_PERIOD_EPOCHS. */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('A58po7VsVayEQWoEfdGu3sDWdNGKwfxtZVLGCoBn37Mh');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"config"] of lease. */
export function findConfigPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('config')], programId);
}

/** PDA [b"lease", agent] of lease. */
export function findLeasePda(agent: PublicKey, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('lease'), agent.toBytes()], programId);
}

/** Config PDA [b"config"]. */
export interface LeaseConfig {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
  bump: number;
}
export const LEASE_CONFIG_DISCRIMINATOR = Uint8Array.from([0x83, 0x2f, 0x2b, 0x57, 0x44, 0xd3, 0x53, 0xac]);
export const LEASE_CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }, { name: 'bump', type: 'u8' }, { name: 'Pad', type: 'pad7' }];
export const LEASE_CONFIG_SIZE = 120;
export function encodeLeaseConfig(v: LeaseConfig): Uint8Array {
  return encodeFields(LEASE_CONFIG_DISCRIMINATOR, LEASE_CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeLeaseConfig(data: Uint8Array): LeaseConfig | null {
  return hasDiscriminator(data, LEASE_CONFIG_DISCRIMINATOR) ? decodeFields<LeaseConfig>(data, 8, LEASE_CONFIG_FIELDS, true) : null;
}

/** Lease PDA [b"lease", agent]. status: 0 active, 1 grace, 2 deactivated. */
export interface Lease {
  agent: PublicKey;
  paidThroughEpoch: bigint;
  lastTickEpoch: bigint;
  createdEpoch: bigint;
  totalPaid: bigint;
  status: number;
  bump: number;
}
export const LEASE_DISCRIMINATOR = Uint8Array.from([0x0e, 0x67, 0xda, 0x3d, 0xf8, 0xea, 0x69, 0x54]);
export const LEASE_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'paidThroughEpoch', type: 'u64' }, { name: 'lastTickEpoch', type: 'u64' }, { name: 'createdEpoch', type: 'u64' }, { name: 'totalPaid', type: 'u64' }, { name: 'status', type: 'u8' }, { name: 'bump', type: 'u8' }, { name: 'Pad', type: 'pad6' }];
export const LEASE_SIZE = 80;
export function encodeLease(v: Lease): Uint8Array {
  return encodeFields(LEASE_DISCRIMINATOR, LEASE_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeLease(data: Uint8Array): Lease | null {
  return hasDiscriminator(data, LEASE_DISCRIMINATOR) ? decodeFields<Lease>(data, 8, LEASE_FIELDS, true) : null;
}

export interface LeaseInitializedEvent {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  epochSeconds: bigint;
}
export const LEASE_INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0x50, 0xe9, 0xda, 0x17, 0x2f, 0xaa, 0x45, 0x9a]);
export const LEASE_INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }];
export function encodeLeaseInitializedEvent(v: LeaseInitializedEvent): Uint8Array {
  return encodeFields(LEASE_INITIALIZED_EVENT_DISCRIMINATOR, LEASE_INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface LeasePaidEvent {
  agent: PublicKey;
  payer: PublicKey;
  amount: bigint;
  epoch: bigint;
  paidThroughEpoch: bigint;
  epochs: number;
  prevStatus: number;
  status: number;
}
export const LEASE_PAID_EVENT_DISCRIMINATOR = Uint8Array.from([0x4d, 0xb1, 0xca, 0x25, 0x72, 0xff, 0xff, 0x6c]);
export const LEASE_PAID_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'payer', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'epoch', type: 'u64' }, { name: 'paidThroughEpoch', type: 'u64' }, { name: 'epochs', type: 'u32' }, { name: 'prevStatus', type: 'u8' }, { name: 'status', type: 'u8' }, { name: 'Pad', type: 'pad2' }];
export function encodeLeasePaidEvent(v: LeasePaidEvent): Uint8Array {
  return encodeFields(LEASE_PAID_EVENT_DISCRIMINATOR, LEASE_PAID_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface LeaseTickedEvent {
  agent: PublicKey;
  epoch: bigint;
  paidThroughEpoch: bigint;
  prevStatus: number;
  status: number;
}
export const LEASE_TICKED_EVENT_DISCRIMINATOR = Uint8Array.from([0x80, 0x86, 0x92, 0xfe, 0x40, 0x26, 0x83, 0xe3]);
export const LEASE_TICKED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'epoch', type: 'u64' }, { name: 'paidThroughEpoch', type: 'u64' }, { name: 'prevStatus', type: 'u8' }, { name: 'status', type: 'u8' }, { name: 'Pad', type: 'pad6' }];
export function encodeLeaseTickedEvent(v: LeaseTickedEvent): Uint8Array {
  return encodeFields(LEASE_TICKED_EVENT_DISCRIMINATOR, LEASE_TICKED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export type Event = { name: 'LeaseInitialized'; data: LeaseInitializedEvent } | { name: 'LeasePaid'; data: LeasePaidEvent } | { name: 'LeaseTicked'; data: LeaseTickedEvent };
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  if (hasDiscriminator(data, LEASE_INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<LeaseInitializedEvent>(data, 8, LEASE_INITIALIZED_EVENT_FIELDS); return d ? { name: 'LeaseInitialized', data: d } : null; }
  if (hasDiscriminator(data, LEASE_PAID_EVENT_DISCRIMINATOR)) { const d = decodeFields<LeasePaidEvent>(data, 8, LEASE_PAID_EVENT_FIELDS); return d ? { name: 'LeasePaid', data: d } : null; }
  if (hasDiscriminator(data, LEASE_TICKED_EVENT_DISCRIMINATOR)) { const d = decodeFields<LeaseTickedEvent>(data, 8, LEASE_TICKED_EVENT_FIELDS); return d ? { name: 'LeaseTicked', data: d } : null; }
  return null;
}

export const IX_INITIALIZE = 0;
export const INITIALIZE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'epochSeconds', type: 'u64' }];
export interface InitializeArgs {
  epochSeconds: bigint;
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
/** Creates the Config PDA once: admin, USDC mint, treasury (a USDC token account), epoch length. */
export function initializeInstruction(accounts: InitializeAccounts, args: InitializeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.admin, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.usdcMint, isSigner: false, isWritable: false },
      { pubkey: accounts.treasury, isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeInitializeArgs(args)),
  });
}

export const IX_PAY_LEASE = 1;
export const PAY_LEASE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'epochs', type: 'u32' }];
export interface PayLeaseArgs {
  epochs: number;
}
export interface PayLeaseAccounts {
  payer: PublicKey;
  config?: PublicKey;
  lease: PublicKey;
  agent: PublicKey; // the agent id: a Token-2022 mint, decimals 0, supply 1
  payerUsdc: PublicKey;
  treasury: PublicKey;
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
}
/** Instruction data of pay_lease: tag 1 then the fixed little-endian args. */
export function encodePayLeaseArgs(args: PayLeaseArgs): Uint8Array {
  return encodeFields(Uint8Array.of(1), PAY_LEASE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodePayLeaseArgs(data: Uint8Array): PayLeaseArgs | null {
  return data[0] === 1 ? decodeFields<PayLeaseArgs>(data, 1, PAY_LEASE_ARGS_FIELDS) : null;
}
/** Pays `epochs` epochs (LEASE_COST_PER_EPOCH each) to the treasury: creates the Lease on first payment (paid through the current epoch), else paid_through_epoch += epochs. Paying the back-lease reactivates. */
export function payLeaseInstruction(accounts: PayLeaseAccounts, args: PayLeaseArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.payer, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.lease, isSigner: false, isWritable: true },
      { pubkey: accounts.agent, isSigner: false, isWritable: false },
      { pubkey: accounts.payerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodePayLeaseArgs(args)),
  });
}

export const IX_TICK_LEASE = 2;
export const TICK_LEASE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface TickLeaseArgs {

}
export interface TickLeaseAccounts {
  config?: PublicKey;
  lease: PublicKey;
}
/** Instruction data of tick_lease: tag 2 then the fixed little-endian args. */
export function encodeTickLeaseArgs(args: TickLeaseArgs): Uint8Array {
  return encodeFields(Uint8Array.of(2), TICK_LEASE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeTickLeaseArgs(data: Uint8Array): TickLeaseArgs | null {
  return data[0] === 2 ? decodeFields<TickLeaseArgs>(data, 1, TICK_LEASE_ARGS_FIELDS) : null;
}
/** Permissionless: recomputes status for the current epoch (grace after a missed epoch, deactivated once more than GRACE_PERIOD_EPOCHS are unpaid; deactivation sticks until fully paid). */
export function tickLeaseInstruction(accounts: TickLeaseAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.lease, isSigner: false, isWritable: true },
    ],
    data: instructionData(encodeTickLeaseArgs({} as TickLeaseArgs)),
  });
}

export const ERRORS = {
  InvalidInstruction: 4096,
  NotEnoughAccounts: 4097,
  MissingSignature: 4098,
  WrongPda: 4099,
  AlreadyInitialized: 4100,
  NotInitialized: 4101,
  WrongTreasury: 4102,
  WrongMint: 4103,
  InsufficientUsdc: 4104,
  NotAnAgent: 4105,
  WrongProgram: 4106,
  NoLease: 4107,
  BadArgument: 4108,
  NotWritable: 4109,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  4096: "InvalidInstruction: unknown tag or wrong instruction data length",
  4097: "NotEnoughAccounts: fewer accounts than the instruction needs",
  4098: "MissingSignature: a required signer did not sign",
  4099: "WrongPda: an account is not the expected PDA of this program",
  4100: "AlreadyInitialized: the config already exists",
  4101: "NotInitialized: the config account is missing or not this program's",
  4102: "WrongTreasury: treasury is not the configured treasury",
  4103: "WrongMint: a token account is not of the configured USDC mint",
  4104: "InsufficientUsdc: the payer's USDC account holds less than the cost",
  4105: "NotAnAgent: agent is not a Token-2022 mint with decimals 0 and supply 1",
  4106: "WrongProgram: a program account is not the expected program",
  4107: "NoLease: the lease account does not exist",
  4108: "BadArgument: epochs must be 1..1000 and epoch_seconds > 0",
  4109: "NotWritable: an account that must be writable is not",
};
