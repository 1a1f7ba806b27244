/**
 * Instruction builders for the challenge program (0x01 spec §10.4, §8.6;
 * programs/challenge/resolve.c), taking public keys only: stage the evidence buffer (a fresh
 * account the caller signs for, then write_buffer chunks), submit_challenge within the window,
 * resolve_challenge after it (compute budget, Ed25519 program instruction over the entry's
 * signing preimage, resolve), expire_challenge, close_buffer. Browser-safe; the evidence bytes
 * come from evidence.ts.
 */

import {
  ComputeBudgetProgram,
  Ed25519Program,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import { Buffer } from 'buffer';
import { behaviorLog, challenge, stakeLock } from './programs';

/** Bytes of one write_buffer chunk (fits a 1,232-byte transaction with one signer). */
export const BUFFER_CHUNK = 1000;
/** Compute units requested for resolve_challenge. */
export const RESOLVE_COMPUTE_UNITS = 400_000;

const isKey = (k: unknown): k is PublicKey => k instanceof PublicKey;
function keys(p: Record<string, unknown>, names: readonly string[]): void {
  for (const n of names) if (!isKey(p[n])) throw new TypeError(`${n} must be a PublicKey`);
}

/** Account size of a buffer holding `len` evidence bytes (rent: getMinimumBalanceForRentExemption). */
export function bufferAccountSize(len: number): number {
  if (!Number.isInteger(len) || len <= 0 || len > 0xffffffff) throw new RangeError('len must be a positive u32');
  return challenge.BUFFER_SIZE + len;
}

/** write_buffer: the fixed args, then `chunk` as the data tail, written at `offset`. Signer: authority. */
export function writeBufferInstruction(
  authority: PublicKey,
  buffer: PublicKey,
  offset: number,
  chunk: Uint8Array,
): TransactionInstruction {
  if (!isKey(authority) || !isKey(buffer)) throw new TypeError('authority and buffer must be PublicKeys');
  if (!(chunk instanceof Uint8Array) || chunk.length === 0) throw new TypeError('chunk must be a non-empty Uint8Array');
  const head = challenge.encodeWriteBufferArgs({ offset });
  const data = Buffer.alloc(head.length + chunk.length);
  data.set(head);
  data.set(chunk, head.length);
  return new TransactionInstruction({
    programId: challenge.PROGRAM_ID,
    keys: [
      { pubkey: authority, isSigner: true, isWritable: false },
      { pubkey: buffer, isSigner: false, isWritable: true },
    ],
    data,
  });
}

/** Parameters of {@link stageBufferInstructions}. */
export interface StageBufferInstructionsParams {
  /** Pays and owns the buffer (signs every transaction). */
  authority: PublicKey;
  /** The fresh buffer account; the caller adds its Keypair as a signer of the first transaction. */
  buffer: PublicKey;
  /** The evidence bytes (evidence.ts). */
  bytes: Uint8Array;
  /** Rent-exempt lamports for {@link bufferAccountSize}(bytes.length). */
  lamports: number;
  /** Bytes per write_buffer transaction (default {@link BUFFER_CHUNK}). */
  chunk?: number;
}

/**
 * The transactions staging a buffer, one instruction list per transaction: first
 * [createAccount (owner challenge), init_buffer] (signers: authority, buffer), then one
 * write_buffer per chunk (signer: authority; they may be sent in any order, offsets are explicit).
 */
export function stageBufferInstructions(p: StageBufferInstructionsParams): TransactionInstruction[][] {
  keys(p as unknown as Record<string, unknown>, ['authority', 'buffer']);
  if (!(p.bytes instanceof Uint8Array) || p.bytes.length === 0)
    throw new TypeError('bytes must be a non-empty Uint8Array');
  if (!Number.isSafeInteger(p.lamports) || p.lamports < 0)
    throw new RangeError('lamports must be a non-negative integer');
  const chunk = p.chunk ?? BUFFER_CHUNK;
  if (!Number.isInteger(chunk) || chunk < 1 || chunk > BUFFER_CHUNK)
    throw new RangeError(`chunk must be 1..${BUFFER_CHUNK}`);
  const out: TransactionInstruction[][] = [
    [
      SystemProgram.createAccount({
        fromPubkey: p.authority,
        newAccountPubkey: p.buffer,
        lamports: p.lamports,
        space: bufferAccountSize(p.bytes.length),
        programId: challenge.PROGRAM_ID,
      }),
      challenge.initBufferInstruction({ authority: p.authority, buffer: p.buffer }, { len: p.bytes.length }),
    ],
  ];
  for (let o = 0; o < p.bytes.length; o += chunk)
    out.push([writeBufferInstruction(p.authority, p.buffer, o, p.bytes.subarray(o, o + chunk))]);
  return out;
}

/** close_buffer: the buffer's lamports back to its authority. Signer: authority. */
export function closeBufferInstructions(p: { authority: PublicKey; buffer: PublicKey }): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['authority', 'buffer']);
  return [challenge.closeBufferInstruction({ authority: p.authority, buffer: p.buffer })];
}

/** The Challenge PDA of `challenger` against the agent's batch of `epoch`. */
export function challengeAddress(agent: PublicKey, epoch: bigint, challenger: PublicKey): PublicKey {
  if (!isKey(agent) || !isKey(challenger) || typeof epoch !== 'bigint')
    throw new TypeError('agent and challenger must be PublicKeys, epoch a bigint');
  return challenge.findChallengePda(behaviorLog.findBatchPda(agent, epoch)[0], challenger)[0];
}

/**
 * submit_challenge against the agent's batch of `epoch`, committing to `leaf` and locking
 * CHALLENGE_STAKE from `challengerUsdc`. Signer: challenger. The Challenge address is
 * {@link challengeAddress}.
 */
export function submitChallengeInstructions(p: {
  challenger: PublicKey;
  challengerUsdc: PublicKey;
  agent: PublicKey;
  epoch: bigint;
  leaf: Uint8Array;
}): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['challenger', 'challengerUsdc', 'agent']);
  if (typeof p.epoch !== 'bigint' || p.epoch < 0n) throw new RangeError('epoch must be a non-negative bigint');
  if (!(p.leaf instanceof Uint8Array) || p.leaf.length !== 32) throw new TypeError('leaf must be 32 bytes');
  const batch = behaviorLog.findBatchPda(p.agent, p.epoch)[0];
  return [
    challenge.submitChallengeInstruction(
      {
        challenger: p.challenger,
        challengerUsdc: p.challengerUsdc,
        batch,
        challenge: challenge.findChallengePda(batch, p.challenger)[0],
        agentChallenges: challenge.findAgentPda(p.agent)[0],
      },
      { leaf: p.leaf },
    ),
  ];
}

/** Parameters of {@link resolveChallengeInstructions}. */
export interface ResolveChallengeInstructionsParams {
  challenge: PublicKey;
  /**
   * From the Challenge account (challenge.decodeChallenge): the batch, the agent, the challenger's wallet and USDC
   * account.
   */
  batch: PublicKey;
  agent: PublicKey;
  /** Receives the evidence buffer's rent: resolve_challenge closes the buffer. */
  challenger: PublicKey;
  challengerUsdc: PublicKey;
  /** The challenge Config's treasury and stake_lock's vault (EconomyConfig treasury / stakeVault). */
  treasury: PublicKey;
  stakeVault: PublicKey;
  buffer: PublicKey;
  /** The batch signer's key (identity owner) and the entry's signing preimage + signature (evidence.ts). */
  signer: PublicKey;
  preimage: Uint8Array;
  signature: Uint8Array;
  /** Compute unit limit (default {@link RESOLVE_COMPUTE_UNITS}; 0 = no compute budget instruction). */
  computeUnits?: number;
}

/**
 * [compute budget, Ed25519 verification of the entry, resolve_challenge]; permissionless, so
 * only a fee payer signs. Upheld: the agent's stake is slashed; rejected: the stake goes to the treasury.
 * Either way the buffer is closed and its rent goes to `challenger`.
 */
export function resolveChallengeInstructions(p: ResolveChallengeInstructionsParams): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, [
    'challenge',
    'batch',
    'agent',
    'challenger',
    'challengerUsdc',
    'treasury',
    'stakeVault',
    'buffer',
    'signer',
  ]);
  if (!(p.preimage instanceof Uint8Array) || !(p.signature instanceof Uint8Array) || p.signature.length !== 64)
    throw new TypeError('preimage must be bytes and signature 64 bytes');
  const units = p.computeUnits ?? RESOLVE_COMPUTE_UNITS;
  const ixs: TransactionInstruction[] = [];
  if (units > 0) ixs.push(ComputeBudgetProgram.setComputeUnitLimit({ units }));
  ixs.push(
    Ed25519Program.createInstructionWithPublicKey({
      publicKey: p.signer.toBytes(),
      message: p.preimage,
      signature: p.signature,
    }),
  );
  ixs.push(
    challenge.resolveChallengeInstruction({
      challenge: p.challenge,
      batch: p.batch,
      buffer: p.buffer,
      agentChallenges: challenge.findAgentPda(p.agent)[0],
      challengerUsdc: p.challengerUsdc,
      treasury: p.treasury,
      stakeConfig: stakeLock.findConfigPda()[0],
      stake: stakeLock.findStakePda(p.agent)[0],
      stakeVault: p.stakeVault,
      stakeVaultAuthority: stakeLock.findVaultAuthorityPda()[0],
      challenger: p.challenger,
    }),
  );
  return ixs;
}

/**
 * expire_challenge: a challenge left unresolved past 2 × CHALLENGE_WINDOW_EPOCHS; its stake to the treasury.
 * Permissionless.
 */
export function expireChallengeInstructions(p: {
  challenge: PublicKey;
  agent: PublicKey;
  treasury: PublicKey;
}): TransactionInstruction[] {
  keys(p as unknown as Record<string, unknown>, ['challenge', 'agent', 'treasury']);
  return [
    challenge.expireChallengeInstruction({
      challenge: p.challenge,
      agentChallenges: challenge.findAgentPda(p.agent)[0],
      treasury: p.treasury,
    }),
  ];
}
