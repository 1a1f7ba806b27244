/**
 * Challenge actions (0x01 spec §10.4, §8.6; programs/challenge/resolve.c): stage the evidence
 * buffer (log entry, payload, merkle proof, the batch's canonical CBOR), submit_challenge within
 * the window, resolve_challenge after it (Ed25519 program instruction over the entry's signing
 * preimage, then resolve; an upheld challenge slashes through stake_lock).
 */
import { ComputeBudgetProgram, Ed25519Program, Keypair, PublicKey, SystemProgram, TransactionInstruction, type Connection } from '@solana/web3.js';
import { encodeBatch, type BehaviorBatch } from '../../protocol/batch';
import { signingPreimage } from '../../protocol/envelope';
import { leafHash, logEntryOf, merkleProof } from '../../protocol/merkle';
import type { Envelope } from '../../protocol/types';
import { ChainAccountError } from '../errors';
import { behaviorLog, challenge, stakeLock } from '../programs';
import { sendIxs } from './send';

/** Bytes of one write_buffer chunk (fits a 1,232-byte transaction with one signer). */
export const BUFFER_CHUNK = 1000;
/** Compute units requested for resolve_challenge. */
export const RESOLVE_COMPUTE_UNITS = 400_000;

/** Everything a challenger needs about one log entry of a batch. */
export interface ChallengeEvidence {
  /** The committed merkle leaf (submit_challenge arg). */
  leaf: Uint8Array;
  /** Buffer bytes: u32 entry_len | entry | u32 payload_len | payload | u32 index | u8 depth | siblings | batch CBOR. */
  bytes: Uint8Array;
  /** The envelope's signing preimage and signature (Ed25519 program instruction at resolve). */
  preimage: Uint8Array;
  signature: Uint8Array;
}

/** Builds the evidence for entry `index` of the agent's epoch `log` (the log the batch's root covers). */
export function challengeEvidence(p: { log: readonly Envelope[]; index: number; batch: BehaviorBatch }): ChallengeEvidence {
  if (!Array.isArray(p?.log) || !Number.isInteger(p.index) || p.index < 0 || p.index >= p.log.length) throw new RangeError('index must point into log');
  const entries = p.log.map(logEntryOf);
  const leaves = entries.map(leafHash);
  const proof = merkleProof(leaves, p.index);
  const e = p.log[p.index];
  const entry = entries[p.index];
  const batch = encodeBatch(p.batch);
  const payload = e.payload;
  const out = new Uint8Array(4 + entry.length + 4 + payload.length + 5 + 32 * proof.siblings.length + batch.length);
  const dv = new DataView(out.buffer);
  let o = 0;
  dv.setUint32(o, entry.length, true); o += 4;
  out.set(entry, o); o += entry.length;
  dv.setUint32(o, payload.length, true); o += 4;
  out.set(payload, o); o += payload.length;
  dv.setUint32(o, proof.index, true); o += 4;
  out[o++] = proof.siblings.length;
  for (const s of proof.siblings) { out.set(s, o); o += 32; }
  out.set(batch, o);
  return { leaf: leaves[p.index], bytes: out, preimage: signingPreimage(e), signature: e.signature };
}

function writeBufferIx(authority: PublicKey, buffer: PublicKey, offset: number, chunk: Uint8Array): TransactionInstruction {
  const head = challenge.encodeWriteBufferArgs({ offset });
  const data = Buffer.alloc(head.length + chunk.length);
  data.set(head);
  data.set(chunk, head.length);
  return new TransactionInstruction({
    programId: challenge.PROGRAM_ID,
    keys: [{ pubkey: authority, isSigner: true, isWritable: false }, { pubkey: buffer, isSigner: false, isWritable: true }],
    data,
  });
}

/** Creates a challenge-owned buffer account, claims it and writes `bytes` in chunks; returns its address. */
export async function stageBuffer(connection: Connection, p: { authority: Keypair; bytes: Uint8Array }): Promise<PublicKey> {
  if (!(p?.bytes instanceof Uint8Array) || p.bytes.length === 0) throw new TypeError('bytes must be a non-empty Uint8Array');
  const buffer = Keypair.generate();
  const space = challenge.BUFFER_SIZE + p.bytes.length;
  const lamports = await connection.getMinimumBalanceForRentExemption(space);
  const auth = p.authority.publicKey;
  await sendIxs(connection, [
    SystemProgram.createAccount({ fromPubkey: auth, newAccountPubkey: buffer.publicKey, lamports, space, programId: challenge.PROGRAM_ID }),
    challenge.initBufferInstruction({ authority: auth, buffer: buffer.publicKey }, { len: p.bytes.length }),
  ], [p.authority, buffer]);
  const writes: Promise<string>[] = [];
  for (let o = 0; o < p.bytes.length; o += BUFFER_CHUNK) {
    writes.push(sendIxs(connection, [writeBufferIx(auth, buffer.publicKey, o, p.bytes.subarray(o, o + BUFFER_CHUNK))], [p.authority]));
  }
  await Promise.all(writes);
  return buffer.publicKey;
}

/** Closes a buffer (rent back to its authority). */
export async function closeBuffer(connection: Connection, p: { authority: Keypair; buffer: PublicKey }): Promise<string> {
  return sendIxs(connection, [challenge.closeBufferInstruction({ authority: p.authority.publicKey, buffer: p.buffer })], [p.authority]);
}

/** The Challenge PDA of `challenger` against the agent's batch of `epoch`. */
export function challengeAddress(agent: PublicKey, epoch: bigint, challenger: PublicKey): PublicKey {
  return challenge.findChallengePda(behaviorLog.findBatchPda(agent, epoch)[0], challenger)[0];
}

/**
 * Challenges the agent's batch of `epoch`, committing to `leaf` and locking CHALLENGE_STAKE
 * from `challengerUsdc` (spec §10.4). Returns the signature and the Challenge address.
 */
export async function submitChallenge(connection: Connection, p: { challenger: Keypair; challengerUsdc: PublicKey; agent: PublicKey; epoch: bigint; leaf: Uint8Array }): Promise<{ signature: string; challenge: PublicKey }> {
  const batch = behaviorLog.findBatchPda(p.agent, p.epoch)[0];
  const address = challenge.findChallengePda(batch, p.challenger.publicKey)[0];
  const signature = await sendIxs(connection, [challenge.submitChallengeInstruction({
    challenger: p.challenger.publicKey, challengerUsdc: p.challengerUsdc, batch, challenge: address, agentChallenges: challenge.findAgentPda(p.agent)[0],
  }, { leaf: p.leaf })], [p.challenger]);
  return { signature, challenge: address };
}

/** Parameters of {@link resolveChallenge}. */
export interface ResolveChallengeParams {
  /** Pays the fee (resolution is permissionless). */
  payer: Keypair;
  challenge: PublicKey;
  buffer: PublicKey;
  /** The batch signer's key (identity owner) and the entry's preimage + signature. */
  signer: PublicKey;
  preimage: Uint8Array;
  signature: Uint8Array;
}

/** Resolves a challenge after its window (spec §10.4): upheld → slash; rejected → stake to treasury. */
export async function resolveChallenge(connection: Connection, p: ResolveChallengeParams): Promise<string> {
  const [chInfo, cfgInfo, slCfgInfo] = await connection.getMultipleAccountsInfo([p.challenge, challenge.findConfigPda()[0], stakeLock.findConfigPda()[0]], 'confirmed');
  const c = chInfo ? challenge.decodeChallenge(chInfo.data) : null;
  const cfg = cfgInfo ? challenge.decodeConfig(cfgInfo.data) : null;
  const sl = slCfgInfo ? stakeLock.decodeStakeConfig(slCfgInfo.data) : null;
  if (!c) throw new ChainAccountError(`no Challenge account at ${p.challenge.toBase58()}`);
  if (!cfg || !sl) throw new ChainAccountError('challenge or stake_lock is not initialized');
  return sendIxs(connection, [
    ComputeBudgetProgram.setComputeUnitLimit({ units: RESOLVE_COMPUTE_UNITS }),
    Ed25519Program.createInstructionWithPublicKey({ publicKey: p.signer.toBytes(), message: p.preimage, signature: p.signature }),
    challenge.resolveChallengeInstruction({
      challenge: p.challenge, batch: c.batch, buffer: p.buffer, agentChallenges: challenge.findAgentPda(c.agent)[0],
      challengerUsdc: c.challengerUsdc, treasury: cfg.treasury, stakeConfig: stakeLock.findConfigPda()[0], stake: stakeLock.findStakePda(c.agent)[0],
      stakeVault: sl.vault, stakeVaultAuthority: stakeLock.findVaultAuthorityPda()[0],
    }),
  ], [p.payer]);
}

/** Expires a challenge left unresolved past 2 × CHALLENGE_WINDOW_EPOCHS (its stake to the treasury). */
export async function expireChallenge(connection: Connection, p: { payer: Keypair; challenge: PublicKey }): Promise<string> {
  const [chInfo, cfgInfo] = await connection.getMultipleAccountsInfo([p.challenge, challenge.findConfigPda()[0]], 'confirmed');
  const c = chInfo ? challenge.decodeChallenge(chInfo.data) : null;
  const cfg = cfgInfo ? challenge.decodeConfig(cfgInfo.data) : null;
  if (!c || !cfg) throw new ChainAccountError('challenge account or config missing');
  return sendIxs(connection, [challenge.expireChallengeInstruction({ challenge: p.challenge, agentChallenges: challenge.findAgentPda(c.agent)[0], treasury: cfg.treasury })], [p.payer]);
}
