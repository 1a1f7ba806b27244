/**
 * The challenge actions as instruction lists for run-action.ts, from a pre-filled candidate
 * (lib/wire ChallengeCandidate: leaf, evidence bytes, preimage, signature): open = submit_challenge
 * then stage the evidence buffer (a fresh account, create + init, then the chunks); resolve
 * (anyone, after the window) = stage a buffer with the same evidence, then compute budget +
 * Ed25519 + resolve_challenge; expire (anyone, after twice the window).
 */
import {
  PublicKey, bufferAccountSize, expireChallengeInstructions, freshSigner, readChallenge, resolveChallengeInstructions, stageBufferInstructions,
  submitChallengeInstructions, usdcAccountOf, type Connection, type EconomyConfig,
} from '../../lib/chain';
import { hexToBytes, type ChallengeCandidate } from '../../lib/wire';
import type { BuiltAction } from './run-action';

async function stage(connection: Connection, authority: PublicKey, bytes: Uint8Array): Promise<{ buffer: PublicKey; txs: BuiltAction['txs'] }> {
  const buffer = freshSigner();
  const lamports = await connection.getMinimumBalanceForRentExemption(bufferAccountSize(bytes.length));
  const lists = stageBufferInstructions({ authority, buffer: buffer.publicKey, bytes, lamports });
  return { buffer: buffer.publicKey, txs: lists.map((ixs, i) => ({ ixs, partialSigners: i === 0 ? [buffer] : [] })) };
}

/** submit_challenge + the evidence buffer, signed by `challenger`. */
export async function buildOpenChallenge(connection: Connection, challenger: PublicKey, economy: EconomyConfig, c: ChallengeCandidate): Promise<BuiltAction> {
  const agent = new PublicKey(c.agentAddress);
  const submit = submitChallengeInstructions({ challenger, challengerUsdc: usdcAccountOf(economy.usdcMint, challenger), agent, epoch: BigInt(c.epoch), leaf: hexToBytes(c.leaf, 32) });
  const staged = await stage(connection, challenger, hexToBytes(c.bytes));
  return { txs: [{ ixs: submit }, ...staged.txs] };
}

/** A fresh evidence buffer, then resolve_challenge; `payer` may be anyone. */
export async function buildResolve(connection: Connection, payer: PublicKey, economy: EconomyConfig, challengeAddress: PublicKey, c: ChallengeCandidate): Promise<BuiltAction> {
  const ch = await readChallenge(connection, challengeAddress);
  if (!ch) throw new Error(`no Challenge account at ${challengeAddress.toBase58()}`);
  const staged = await stage(connection, payer, hexToBytes(c.bytes));
  const resolve = resolveChallengeInstructions({
    challenge: challengeAddress, batch: ch.batch, agent: ch.agent, challengerUsdc: ch.challengerUsdc, treasury: economy.treasury, stakeVault: economy.stakeVault,
    buffer: staged.buffer, signer: new PublicKey(c.signer), preimage: hexToBytes(c.preimage), signature: hexToBytes(c.signature, 64),
  });
  return { txs: [...staged.txs, { ixs: resolve }] };
}

/** expire_challenge; permissionless. */
export function buildExpire(challengeAddress: PublicKey, agent: PublicKey, economy: EconomyConfig): BuiltAction {
  return { txs: [{ ixs: expireChallengeInstructions({ challenge: challengeAddress, agent, treasury: economy.treasury }) }] };
}

/** The candidate whose leaf a Challenge account committed to (so resolve uses that entry's evidence). */
export async function candidateFor(connection: Connection, challengeAddress: PublicKey, agentHex: string, epoch: string): Promise<ChallengeCandidate | null> {
  const [ch, res] = await Promise.all([readChallenge(connection, challengeAddress), fetch(`/api/batches/challengeable?agent=${agentHex}&epoch=${epoch}`, { cache: 'no-store' })]);
  if (!ch || !res.ok) return null;
  const list = ((await res.json()) as { candidates: ChallengeCandidate[] }).candidates;
  const leaf = Array.from(ch.leaf, (b) => b.toString(16).padStart(2, '0')).join('');
  return list.find((c) => c.leaf === leaf) ?? null;
}
