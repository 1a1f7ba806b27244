/**
 * Transaction pieces for the Challenge program on litesvm, used by the tests, the story test and
 * the bench: staging a buffer in chunks and the resolve transaction. The evidence encoding and
 * the instructions come from the lib/chain SDK (lib/chain/evidence.ts,
 * lib/chain/challenge-builders.ts); this file only adds the litesvm sending and the
 * test-friendly parameter shapes.
 */
import { Keypair, PublicKey, type TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import {
  BUFFER_CHUNK,
  bufferAccountSize,
  resolveChallengeInstructions,
  stageBufferInstructions,
  writeBufferInstruction,
} from '../../lib/chain/challenge-builders';
import {
  closeBufferInstruction,
  findAgentPda,
  findChallengePda,
  findConfigPda,
  findSlasherPda,
  findVaultPda,
  PROGRAM_ID,
} from '../../lib/chain/gen/challenge';
import { PROGRAM_IDS } from '../../lib/chain/gen/ids';
import { sendOk } from '../testing';

export { evidenceBytes } from '../../lib/chain/evidence';

/** write_buffer: the fixed args then the chunk as the data tail. */
export const writeBufferIx = writeBufferInstruction;

/** Largest chunk that fits a 1,232-byte transaction with one signer and two accounts. */
export const CHUNK = BUFFER_CHUNK;

/**
 * Creates (System createAccount, owner challenge), claims and fills a buffer with `bytes`;
 * returns its key. `len` may exceed bytes.length (a buffer declared longer than written).
 */
export function stageBuffer(svm: LiteSVM, authority: Keypair, bytes: Uint8Array, len = bytes.length): PublicKey {
  const buffer = Keypair.generate();
  const lamports = Number(svm.minimumBalanceForRentExemption(BigInt(bufferAccountSize(len))));
  // Built for `len` bytes so init_buffer and the account size follow `len`; only `bytes` are written.
  const [create] = stageBufferInstructions({
    authority: authority.publicKey,
    buffer: buffer.publicKey,
    bytes: new Uint8Array(len),
    lamports,
  });
  sendOk(svm, create, [authority, buffer]);
  for (let o = 0; o < bytes.length; o += CHUNK) {
    sendOk(
      svm,
      [writeBufferInstruction(authority.publicKey, buffer.publicKey, o, bytes.subarray(o, o + CHUNK))],
      [authority],
    );
  }
  return buffer.publicKey;
}

export const closeBufferIx = (authority: PublicKey, buffer: PublicKey) => closeBufferInstruction({ authority, buffer });

export interface ResolveParams {
  challenger: PublicKey;
  challengerUsdc: PublicKey;
  agent: PublicKey;
  batch: PublicKey;
  buffer: PublicKey;
  treasury: PublicKey;
  /** stake_lock's vault (its Config, the agent's Stake and the vault authority are PDAs derived by the builder). */
  stakeVault: PublicKey;
  /** The batch signer's public key, the entry's signature preimage and signature (Ed25519 program). */
  signer: Uint8Array;
  preimage: Uint8Array;
  signature: Uint8Array;
  computeUnits?: number;
}

/** [compute budget (when computeUnits), Ed25519 verification of the entry, resolve_challenge]. */
export function resolveIxs(p: ResolveParams): TransactionInstruction[] {
  return resolveChallengeInstructions({
    challenge: findChallengePda(p.batch, p.challenger)[0],
    batch: p.batch,
    agent: p.agent,
    challenger: p.challenger,
    challengerUsdc: p.challengerUsdc,
    treasury: p.treasury,
    stakeVault: p.stakeVault,
    buffer: p.buffer,
    signer: new PublicKey(p.signer),
    preimage: p.preimage,
    signature: p.signature,
    computeUnits: p.computeUnits ?? 0,
  });
}

export { findAgentPda, findChallengePda, findConfigPda, findSlasherPda, findVaultPda, PROGRAM_ID, PROGRAM_IDS };
