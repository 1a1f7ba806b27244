/**
 * Transaction pieces for the Challenge program, used by the tests, the story test and the bench:
 * the evidence buffer layout, staging it in chunks, and the resolve transaction (compute budget,
 * Ed25519 verification of the entry's signature, resolve_challenge). Uses lib/chain's generated
 * codecs; wallet-facing builders belong to lib/chain.
 */
import { ComputeBudgetProgram, Ed25519Program, Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import {
  PROGRAM_ID, BUFFER_SIZE, encodeWriteBufferArgs, findAgentPda, findChallengePda, findConfigPda, findSlasherPda, findVaultPda,
  initBufferInstruction, resolveChallengeInstruction, closeBufferInstruction,
} from '../../lib/chain/gen/challenge';
import { PROGRAM_IDS } from '../../lib/chain/gen/ids';
import { sendOk } from '../test-helpers';

/** Bytes of the evidence + batch section of a buffer (programs/challenge/resolve.c). */
export function evidenceBytes(p: { entry: Uint8Array; payload?: Uint8Array; index: number; siblings: Uint8Array[]; batch: Uint8Array }): Uint8Array {
  const payload = p.payload ?? new Uint8Array(0);
  const out = new Uint8Array(4 + p.entry.length + 4 + payload.length + 5 + 32 * p.siblings.length + p.batch.length);
  const dv = new DataView(out.buffer);
  let o = 0;
  dv.setUint32(o, p.entry.length, true); o += 4;
  out.set(p.entry, o); o += p.entry.length;
  dv.setUint32(o, payload.length, true); o += 4;
  out.set(payload, o); o += payload.length;
  dv.setUint32(o, p.index, true); o += 4;
  out[o++] = p.siblings.length;
  for (const s of p.siblings) { out.set(s, o); o += 32; }
  out.set(p.batch, o);
  return out;
}

/** write_buffer: the fixed args then the chunk as the data tail. */
export function writeBufferIx(authority: PublicKey, buffer: PublicKey, offset: number, chunk: Uint8Array): TransactionInstruction {
  const head = encodeWriteBufferArgs({ offset });
  const data = new Uint8Array(head.length + chunk.length);
  data.set(head); data.set(chunk, head.length);
  return new TransactionInstruction({
    programId: PROGRAM_ID,
    keys: [{ pubkey: authority, isSigner: true, isWritable: false }, { pubkey: buffer, isSigner: false, isWritable: true }],
    data: Buffer.from(data),
  });
}

/** Largest chunk that fits a 1,232-byte transaction with one signer and two accounts. */
export const CHUNK = 1000;

/** Creates (System createAccount, owner challenge), claims and fills a buffer with `bytes`; returns its key. */
export function stageBuffer(svm: LiteSVM, authority: Keypair, bytes: Uint8Array, len = bytes.length): PublicKey {
  const buffer = Keypair.generate();
  const space = BUFFER_SIZE + len;
  sendOk(svm, [
    SystemProgram.createAccount({ fromPubkey: authority.publicKey, newAccountPubkey: buffer.publicKey, lamports: Number(svm.minimumBalanceForRentExemption(BigInt(space))), space, programId: PROGRAM_ID }),
    initBufferInstruction({ authority: authority.publicKey, buffer: buffer.publicKey }, { len }),
  ], [authority, buffer]);
  for (let o = 0; o < bytes.length; o += CHUNK) {
    sendOk(svm, [writeBufferIx(authority.publicKey, buffer.publicKey, o, bytes.subarray(o, o + CHUNK))], [authority]);
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
  /** stake_lock accounts. */
  stakeConfig: PublicKey;
  stake: PublicKey;
  stakeVault: PublicKey;
  stakeVaultAuthority: PublicKey;
  /** The batch signer's public key, the entry's signature preimage and signature (Ed25519 program). */
  signer: Uint8Array;
  preimage: Uint8Array;
  signature: Uint8Array;
  computeUnits?: number;
}

/** [compute budget, Ed25519 verification of the entry, resolve_challenge]. */
export function resolveIxs(p: ResolveParams): TransactionInstruction[] {
  const ixs: TransactionInstruction[] = [];
  if (p.computeUnits) ixs.push(ComputeBudgetProgram.setComputeUnitLimit({ units: p.computeUnits }));
  ixs.push(Ed25519Program.createInstructionWithPublicKey({ publicKey: p.signer, message: p.preimage, signature: p.signature }));
  ixs.push(resolveChallengeInstruction({
    challenge: findChallengePda(p.batch, p.challenger)[0], batch: p.batch, buffer: p.buffer,
    agentChallenges: findAgentPda(p.agent)[0], vault: findVaultPda()[0], challengerUsdc: p.challengerUsdc,
    treasury: p.treasury, stakeConfig: p.stakeConfig, stake: p.stake, stakeVault: p.stakeVault,
    stakeVaultAuthority: p.stakeVaultAuthority, slasher: findSlasherPda()[0],
  }));
  return ixs;
}

export { findAgentPda, findChallengePda, findConfigPda, findSlasherPda, findVaultPda, PROGRAM_ID, PROGRAM_IDS };
