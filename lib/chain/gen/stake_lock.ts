// Generated from programs/stake_lock/program.json by programs/tools/gen.ts. Do not edit.
/** StakeLock (0x01 spec §10.5): agent owners lock at least MIN_STAKE USDC per agent; unlock only once the Lease is deactivated, claim after UNLOCK_DELAY_SLOTS with no pending challenge; the Challenge program slashes through CPI. */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('Av91oDvLR1HGqHwJdatCa8hZiz7ZG7jn5NSYAkdFvv6i');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"config"] of stake_lock. */
export function findConfigPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('config')], programId);
}

/** PDA [b"stake", agent] of stake_lock. */
export function findStakePda(agent: PublicKey, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('stake'), agent.toBytes()], programId);
}

/** PDA [b"vault_authority"] of stake_lock. */
export function findVaultAuthorityPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('vault_authority')], programId);
}

/** Config PDA [b"config"]. vault: SPL Token account of usdc_mint owned by PDA [b"vault_authority"]. sati_program: the SATI registry whose members may lock stake (a deployment parameter). */
export interface StakeConfig {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  vault: PublicKey;
  epochSeconds: bigint;
  bump: number;
  vaultAuthorityBump: number;
  satiProgram: PublicKey;
}
export const STAKE_CONFIG_DISCRIMINATOR = Uint8Array.from([0xee, 0x97, 0x2b, 0x03, 0x0b, 0x97, 0x3f, 0xb0]);
export const STAKE_CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'vault', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }, { name: 'bump', type: 'u8' }, { name: 'vaultAuthorityBump', type: 'u8' }, { name: 'Pad', type: 'pad6' }, { name: 'satiProgram', type: 'pubkey' }];
export const STAKE_CONFIG_SIZE = 184;
export function encodeStakeConfig(v: StakeConfig): Uint8Array {
  return encodeFields(STAKE_CONFIG_DISCRIMINATOR, STAKE_CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeStakeConfig(data: Uint8Array): StakeConfig | null {
  return hasDiscriminator(data, STAKE_CONFIG_DISCRIMINATOR) ? decodeFields<StakeConfig>(data, 8, STAKE_CONFIG_FIELDS, true) : null;
}

/** Stake PDA [b"stake", agent]. status: 1 locked, 2 unlocking, 3 claimed, 4 slashed. */
export interface Stake {
  agent: PublicKey;
  owner: PublicKey;
  amount: bigint;
  lockedSlot: bigint;
  unlockRequestedSlot: bigint;
  status: number;
  bump: number;
}
export const STAKE_DISCRIMINATOR = Uint8Array.from([0x96, 0xc5, 0xb0, 0x1d, 0x37, 0x84, 0x70, 0x95]);
export const STAKE_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'owner', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'lockedSlot', type: 'u64' }, { name: 'unlockRequestedSlot', type: 'u64' }, { name: 'status', type: 'u8' }, { name: 'bump', type: 'u8' }, { name: 'Pad', type: 'pad6' }];
export const STAKE_SIZE = 104;
export function encodeStake(v: Stake): Uint8Array {
  return encodeFields(STAKE_DISCRIMINATOR, STAKE_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeStake(data: Uint8Array): Stake | null {
  return hasDiscriminator(data, STAKE_DISCRIMINATOR) ? decodeFields<Stake>(data, 8, STAKE_FIELDS, true) : null;
}

export interface StakeInitializedEvent {
  admin: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey;
  vault: PublicKey;
  epochSeconds: bigint;
  satiProgram: PublicKey;
}
export const STAKE_INITIALIZED_EVENT_DISCRIMINATOR = Uint8Array.from([0x94, 0xc9, 0x6d, 0xe1, 0x0a, 0x21, 0x75, 0xa3]);
export const STAKE_INITIALIZED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'admin', type: 'pubkey' }, { name: 'usdcMint', type: 'pubkey' }, { name: 'treasury', type: 'pubkey' }, { name: 'vault', type: 'pubkey' }, { name: 'epochSeconds', type: 'u64' }, { name: 'satiProgram', type: 'pubkey' }];
export function encodeStakeInitializedEvent(v: StakeInitializedEvent): Uint8Array {
  return encodeFields(STAKE_INITIALIZED_EVENT_DISCRIMINATOR, STAKE_INITIALIZED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface StakeLockedEvent {
  agent: PublicKey;
  owner: PublicKey;
  amount: bigint;
  slot: bigint;
}
export const STAKE_LOCKED_EVENT_DISCRIMINATOR = Uint8Array.from([0xbc, 0xfd, 0xd7, 0x6e, 0xdd, 0xc1, 0x6d, 0x2c]);
export const STAKE_LOCKED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'owner', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'slot', type: 'u64' }];
export function encodeStakeLockedEvent(v: StakeLockedEvent): Uint8Array {
  return encodeFields(STAKE_LOCKED_EVENT_DISCRIMINATOR, STAKE_LOCKED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface UnlockQueuedEvent {
  agent: PublicKey;
  owner: PublicKey;
  amount: bigint;
  slot: bigint;
  claimableSlot: bigint;
}
export const UNLOCK_QUEUED_EVENT_DISCRIMINATOR = Uint8Array.from([0xc0, 0x25, 0xc2, 0xf4, 0x6e, 0x0e, 0x5f, 0x01]);
export const UNLOCK_QUEUED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'owner', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'slot', type: 'u64' }, { name: 'claimableSlot', type: 'u64' }];
export function encodeUnlockQueuedEvent(v: UnlockQueuedEvent): Uint8Array {
  return encodeFields(UNLOCK_QUEUED_EVENT_DISCRIMINATOR, UNLOCK_QUEUED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface StakeClaimedEvent {
  agent: PublicKey;
  owner: PublicKey;
  amount: bigint;
  slot: bigint;
}
export const STAKE_CLAIMED_EVENT_DISCRIMINATOR = Uint8Array.from([0xe7, 0x7c, 0x53, 0xa9, 0x64, 0x39, 0x60, 0x83]);
export const STAKE_CLAIMED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'owner', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'slot', type: 'u64' }];
export function encodeStakeClaimedEvent(v: StakeClaimedEvent): Uint8Array {
  return encodeFields(STAKE_CLAIMED_EVENT_DISCRIMINATOR, STAKE_CLAIMED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export interface StakeSlashedEvent {
  agent: PublicKey;
  challengerUsdc: PublicKey;
  amount: bigint;
  reward: bigint;
  toTreasury: bigint;
  slot: bigint;
}
export const STAKE_SLASHED_EVENT_DISCRIMINATOR = Uint8Array.from([0x2b, 0x29, 0xc4, 0x19, 0xda, 0xeb, 0xf4, 0x23]);
export const STAKE_SLASHED_EVENT_FIELDS: readonly FieldSpec[] = [{ name: 'agent', type: 'pubkey' }, { name: 'challengerUsdc', type: 'pubkey' }, { name: 'amount', type: 'u64' }, { name: 'reward', type: 'u64' }, { name: 'toTreasury', type: 'u64' }, { name: 'slot', type: 'u64' }];
export function encodeStakeSlashedEvent(v: StakeSlashedEvent): Uint8Array {
  return encodeFields(STAKE_SLASHED_EVENT_DISCRIMINATOR, STAKE_SLASHED_EVENT_FIELDS, v as unknown as Record<string, unknown>);
}

export type Event = { name: 'StakeInitialized'; data: StakeInitializedEvent } | { name: 'StakeLocked'; data: StakeLockedEvent } | { name: 'UnlockQueued'; data: UnlockQueuedEvent } | { name: 'StakeClaimed'; data: StakeClaimedEvent } | { name: 'StakeSlashed'; data: StakeSlashedEvent };
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  if (hasDiscriminator(data, STAKE_INITIALIZED_EVENT_DISCRIMINATOR)) { const d = decodeFields<StakeInitializedEvent>(data, 8, STAKE_INITIALIZED_EVENT_FIELDS); return d ? { name: 'StakeInitialized', data: d } : null; }
  if (hasDiscriminator(data, STAKE_LOCKED_EVENT_DISCRIMINATOR)) { const d = decodeFields<StakeLockedEvent>(data, 8, STAKE_LOCKED_EVENT_FIELDS); return d ? { name: 'StakeLocked', data: d } : null; }
  if (hasDiscriminator(data, UNLOCK_QUEUED_EVENT_DISCRIMINATOR)) { const d = decodeFields<UnlockQueuedEvent>(data, 8, UNLOCK_QUEUED_EVENT_FIELDS); return d ? { name: 'UnlockQueued', data: d } : null; }
  if (hasDiscriminator(data, STAKE_CLAIMED_EVENT_DISCRIMINATOR)) { const d = decodeFields<StakeClaimedEvent>(data, 8, STAKE_CLAIMED_EVENT_FIELDS); return d ? { name: 'StakeClaimed', data: d } : null; }
  if (hasDiscriminator(data, STAKE_SLASHED_EVENT_DISCRIMINATOR)) { const d = decodeFields<StakeSlashedEvent>(data, 8, STAKE_SLASHED_EVENT_FIELDS); return d ? { name: 'StakeSlashed', data: d } : null; }
  return null;
}

export const IX_INITIALIZE = 0;
export const INITIALIZE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'epochSeconds', type: 'u64' }, { name: 'satiProgram', type: 'pubkey' }];
export interface InitializeArgs {
  epochSeconds: bigint;
  satiProgram: PublicKey;
}
export interface InitializeAccounts {
  admin: PublicKey;
  config?: PublicKey;
  usdcMint: PublicKey;
  treasury: PublicKey; // SPL Token account of usdc_mint
  vault: PublicKey; // SPL Token account of usdc_mint owned by the vault_authority PDA
  systemProgram?: PublicKey;
}
/** Instruction data of initialize: tag 0 then the fixed little-endian args. */
export function encodeInitializeArgs(args: InitializeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(0), INITIALIZE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeInitializeArgs(data: Uint8Array): InitializeArgs | null {
  return data[0] === 0 ? decodeFields<InitializeArgs>(data, 1, INITIALIZE_ARGS_FIELDS) : null;
}
/** Creates the Config PDA once: admin, USDC mint, treasury, vault (owned by the vault_authority PDA), epoch length, and the SATI program whose registered agents may stake. */
export function initializeInstruction(accounts: InitializeAccounts, args: InitializeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.admin, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: true },
      { pubkey: accounts.usdcMint, isSigner: false, isWritable: false },
      { pubkey: accounts.treasury, isSigner: false, isWritable: false },
      { pubkey: accounts.vault, isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeInitializeArgs(args)),
  });
}

export const IX_LOCK_STAKE = 1;
export const LOCK_STAKE_ARGS_FIELDS: readonly FieldSpec[] = [{ name: 'amount', type: 'u64' }];
export interface LockStakeArgs {
  amount: bigint;
}
export interface LockStakeAccounts {
  owner: PublicKey;
  config?: PublicKey;
  stake: PublicKey;
  agent: PublicKey; // agent id: SATI agent NFT (Token-2022 mint, decimals 0, supply 1, no mint authority, TokenGroupMember of SATI's group)
  identity: PublicKey; // owner's Token-2022 account holding the agent NFT
  ownerUsdc: PublicKey;
  vault: PublicKey;
  tokenProgram?: PublicKey;
  systemProgram?: PublicKey;
  satiRegistry: PublicKey; // SATI's RegistryConfig: PDA [b"registry"] of the configured SATI program
  agentIndex: PublicKey; // SATI's AgentIndex PDA [b"agent_index", member_number u64 LE] holding the agent mint
}
/** Instruction data of lock_stake: tag 1 then the fixed little-endian args. */
export function encodeLockStakeArgs(args: LockStakeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(1), LOCK_STAKE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeLockStakeArgs(data: Uint8Array): LockStakeArgs | null {
  return data[0] === 1 ? decodeFields<LockStakeArgs>(data, 1, LOCK_STAKE_ARGS_FIELDS) : null;
}
/** Locks `amount` (>= MIN_STAKE) USDC for a registered SATI agent: the agent mint must be a TokenGroupMember of the group named by SATI's RegistryConfig and held by SATI's AgentIndex PDA for its member number; the signer must own the agent NFT. */
export function lockStakeInstruction(accounts: LockStakeAccounts, args: LockStakeArgs, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.owner, isSigner: true, isWritable: true },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.stake, isSigner: false, isWritable: true },
      { pubkey: accounts.agent, isSigner: false, isWritable: false },
      { pubkey: accounts.identity, isSigner: false, isWritable: false },
      { pubkey: accounts.ownerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
      { pubkey: accounts.systemProgram ?? new PublicKey('11111111111111111111111111111111'), isSigner: false, isWritable: false },
      { pubkey: accounts.satiRegistry, isSigner: false, isWritable: false },
      { pubkey: accounts.agentIndex, isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeLockStakeArgs(args)),
  });
}

export const IX_QUEUE_UNLOCK = 2;
export const QUEUE_UNLOCK_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface QueueUnlockArgs {

}
export interface QueueUnlockAccounts {
  owner: PublicKey;
  config?: PublicKey;
  stake: PublicKey;
  identity: PublicKey;
  lease: PublicKey; // the lease program's PDA [b"lease", agent]
}
/** Instruction data of queue_unlock: tag 2 then the fixed little-endian args. */
export function encodeQueueUnlockArgs(args: QueueUnlockArgs): Uint8Array {
  return encodeFields(Uint8Array.of(2), QUEUE_UNLOCK_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeQueueUnlockArgs(data: Uint8Array): QueueUnlockArgs | null {
  return data[0] === 2 ? decodeFields<QueueUnlockArgs>(data, 1, QUEUE_UNLOCK_ARGS_FIELDS) : null;
}
/** Starts the unlock delay; only when the agent's Lease account says deactivated (status 2). */
export function queueUnlockInstruction(accounts: QueueUnlockAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.owner, isSigner: true, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.stake, isSigner: false, isWritable: true },
      { pubkey: accounts.identity, isSigner: false, isWritable: false },
      { pubkey: accounts.lease, isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeQueueUnlockArgs({} as QueueUnlockArgs)),
  });
}

export const IX_CLAIM_STAKE = 3;
export const CLAIM_STAKE_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface ClaimStakeArgs {

}
export interface ClaimStakeAccounts {
  owner: PublicKey;
  config?: PublicKey;
  stake: PublicKey;
  identity: PublicKey;
  agentChallenges: PublicKey; // the challenge program's PDA [b"agent", agent] (may not exist)
  vault: PublicKey;
  ownerUsdc: PublicKey;
  vaultAuthority?: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of claim_stake: tag 3 then the fixed little-endian args. */
export function encodeClaimStakeArgs(args: ClaimStakeArgs): Uint8Array {
  return encodeFields(Uint8Array.of(3), CLAIM_STAKE_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeClaimStakeArgs(data: Uint8Array): ClaimStakeArgs | null {
  return data[0] === 3 ? decodeFields<ClaimStakeArgs>(data, 1, CLAIM_STAKE_ARGS_FIELDS) : null;
}
/** Returns the stake to the identity owner after UNLOCK_DELAY_SLOTS, when no challenge against the agent is pending. */
export function claimStakeInstruction(accounts: ClaimStakeAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.owner, isSigner: true, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.stake, isSigner: false, isWritable: true },
      { pubkey: accounts.identity, isSigner: false, isWritable: false },
      { pubkey: accounts.agentChallenges, isSigner: false, isWritable: false },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.ownerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.vaultAuthority ?? findVaultAuthorityPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeClaimStakeArgs({} as ClaimStakeArgs)),
  });
}

export const IX_SLASH = 4;
export const SLASH_ARGS_FIELDS: readonly FieldSpec[] = [];
export interface SlashArgs {

}
export interface SlashAccounts {
  slasher: PublicKey;
  config?: PublicKey;
  stake: PublicKey;
  vault: PublicKey;
  challengerUsdc: PublicKey;
  treasury: PublicKey;
  vaultAuthority?: PublicKey;
  tokenProgram?: PublicKey;
}
/** Instruction data of slash: tag 4 then the fixed little-endian args. */
export function encodeSlashArgs(args: SlashArgs): Uint8Array {
  return encodeFields(Uint8Array.of(4), SLASH_ARGS_FIELDS, args as unknown as Record<string, unknown>);
}
export function decodeSlashArgs(data: Uint8Array): SlashArgs | null {
  return data[0] === 4 ? decodeFields<SlashArgs>(data, 1, SLASH_ARGS_FIELDS) : null;
}
/** Only the challenge program's PDA [b"slasher"] (signing through CPI): slashes the whole stake, CHALLENGE_REWARD_BPS to the challenger, the rest to the treasury. */
export function slashInstruction(accounts: SlashAccounts, programId: PublicKey = PROGRAM_ID): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: accounts.slasher, isSigner: true, isWritable: false },
      { pubkey: accounts.config ?? findConfigPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.stake, isSigner: false, isWritable: true },
      { pubkey: accounts.vault, isSigner: false, isWritable: true },
      { pubkey: accounts.challengerUsdc, isSigner: false, isWritable: true },
      { pubkey: accounts.treasury, isSigner: false, isWritable: true },
      { pubkey: accounts.vaultAuthority ?? findVaultAuthorityPda()[0], isSigner: false, isWritable: false },
      { pubkey: accounts.tokenProgram ?? new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), isSigner: false, isWritable: false },
    ],
    data: instructionData(encodeSlashArgs({} as SlashArgs)),
  });
}

export const ERRORS = {
  InvalidInstruction: 8192,
  NotEnoughAccounts: 8193,
  MissingSignature: 8194,
  WrongPda: 8195,
  AlreadyInitialized: 8196,
  NotInitialized: 8197,
  WrongTreasury: 8198,
  WrongMint: 8199,
  InsufficientUsdc: 8200,
  NotIdentityOwner: 8201,
  WrongProgram: 8202,
  WrongVault: 8203,
  BelowMinStake: 8204,
  AlreadyLocked: 8205,
  NotLocked: 8206,
  StillLeased: 8207,
  WrongLeaseAccount: 8208,
  NotUnlocking: 8209,
  UnlockDelayNotElapsed: 8210,
  PendingChallenge: 8211,
  WrongChallengeAccount: 8212,
  AlreadyClaimed: 8213,
  NotSlasher: 8214,
  NoStake: 8215,
  NotWritable: 8216,
  NotAnAgent: 8217,
  NotSatiAgent: 8218,
  WrongSatiAccount: 8219,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  8192: "InvalidInstruction: unknown tag or wrong instruction data length",
  8193: "NotEnoughAccounts: fewer accounts than the instruction needs",
  8194: "MissingSignature: a required signer did not sign",
  8195: "WrongPda: an account is not the expected PDA of this program",
  8196: "AlreadyInitialized: the config already exists",
  8197: "NotInitialized: the config account is missing or not this program's",
  8198: "WrongTreasury: treasury is not the configured treasury",
  8199: "WrongMint: a token account is not of the configured USDC mint",
  8200: "InsufficientUsdc: the owner's USDC account holds less than the amount",
  8201: "NotIdentityOwner: the signer does not own the agent's identity NFT",
  8202: "WrongProgram: a program account is not the expected program",
  8203: "WrongVault: vault or vault authority is not the configured one",
  8204: "BelowMinStake: amount is below MIN_STAKE",
  8205: "AlreadyLocked: a stake is already locked for this agent",
  8206: "NotLocked: the stake is not locked",
  8207: "StillLeased: the agent's lease is not deactivated",
  8208: "WrongLeaseAccount: the lease account is not the lease program's PDA for this agent",
  8209: "NotUnlocking: no unlock was queued",
  8210: "UnlockDelayNotElapsed: UNLOCK_DELAY_SLOTS have not passed since queue_unlock",
  8211: "PendingChallenge: a challenge against the agent is pending",
  8212: "WrongChallengeAccount: agent_challenges is not the challenge program's PDA for this agent",
  8213: "AlreadyClaimed: the stake was already claimed",
  8214: "NotSlasher: the signer is not the challenge program's slasher PDA",
  8215: "NoStake: no stake account, or nothing left to slash",
  8216: "NotWritable: an account that must be writable is not",
  8217: "NotAnAgent: agent is not a Token-2022 mint with decimals 0 and supply 1",
  8218: "NotSatiAgent: the agent is not a registered SATI agent (no TokenGroupMember of SATI's group, or its AgentIndex does not hold it)",
  8219: "WrongSatiAccount: sati_registry or agent_index is not the configured SATI program's account",
};
