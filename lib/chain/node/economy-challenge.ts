/**
 * NODE-ONLY (server, scripts, tests): Keypair wrappers for the challenge actions (0x01 spec
 * §10.4, §8.6). Instructions come from the browser-safe SDK (lib/chain/challenge-builders.ts),
 * the evidence bytes from lib/chain/evidence.ts; this module reads the accounts a builder needs,
 * signs and sends with send.ts.
 */
import { type Connection, Keypair, type PublicKey } from '@solana/web3.js';
import {
  bufferAccountSize,
  challengeAddress,
  closeBufferInstructions,
  expireChallengeInstructions,
  resolveChallengeInstructions,
  stageBufferInstructions,
  submitChallengeInstructions,
} from '../challenge-builders';
import { ChainAccountError } from '../errors';
import { challenge, stakeLock } from '../programs';
import { sendIxs } from './send';

export { BUFFER_CHUNK, challengeAddress, RESOLVE_COMPUTE_UNITS } from '../challenge-builders';
export { type ChallengeEvidence, challengeEvidence } from '../evidence';

/** Creates a challenge-owned buffer account, claims it and writes `bytes` in chunks; returns its address. */
export async function stageBuffer(
  connection: Connection,
  p: { authority: Keypair; bytes: Uint8Array },
): Promise<PublicKey> {
  if (!(p?.bytes instanceof Uint8Array) || p.bytes.length === 0)
    throw new TypeError('bytes must be a non-empty Uint8Array');
  const buffer = Keypair.generate();
  const lamports = await connection.getMinimumBalanceForRentExemption(bufferAccountSize(p.bytes.length));
  const [create, ...writes] = stageBufferInstructions({
    authority: p.authority.publicKey,
    buffer: buffer.publicKey,
    bytes: p.bytes,
    lamports,
  });
  await sendIxs(connection, create, [p.authority, buffer]);
  await Promise.all(writes.map((ixs) => sendIxs(connection, ixs, [p.authority])));
  return buffer.publicKey;
}

/** Closes a buffer (rent back to its authority). */
export async function closeBuffer(
  connection: Connection,
  p: { authority: Keypair; buffer: PublicKey },
): Promise<string> {
  return sendIxs(connection, closeBufferInstructions({ authority: p.authority.publicKey, buffer: p.buffer }), [
    p.authority,
  ]);
}

/**
 * Challenges the agent's batch of `epoch`, committing to `leaf` and locking CHALLENGE_STAKE
 * from `challengerUsdc` (spec §10.4). Returns the signature and the Challenge address.
 */
export async function submitChallenge(
  connection: Connection,
  p: { challenger: Keypair; challengerUsdc: PublicKey; agent: PublicKey; epoch: bigint; leaf: Uint8Array },
): Promise<{ signature: string; challenge: PublicKey }> {
  const ixs = submitChallengeInstructions({
    challenger: p.challenger.publicKey,
    challengerUsdc: p.challengerUsdc,
    agent: p.agent,
    epoch: p.epoch,
    leaf: p.leaf,
  });
  const signature = await sendIxs(connection, ixs, [p.challenger]);
  return { signature, challenge: challengeAddress(p.agent, p.epoch, p.challenger.publicKey) };
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
  const [chInfo, cfgInfo, slCfgInfo] = await connection.getMultipleAccountsInfo(
    [p.challenge, challenge.findConfigPda()[0], stakeLock.findConfigPda()[0]],
    'confirmed',
  );
  const c = chInfo ? challenge.decodeChallenge(chInfo.data) : null;
  const cfg = cfgInfo ? challenge.decodeConfig(cfgInfo.data) : null;
  const sl = slCfgInfo ? stakeLock.decodeStakeConfig(slCfgInfo.data) : null;
  if (!c) throw new ChainAccountError(`no Challenge account at ${p.challenge.toBase58()}`);
  if (!cfg || !sl) throw new ChainAccountError('challenge or stake_lock is not initialized');
  return sendIxs(
    connection,
    resolveChallengeInstructions({
      challenge: p.challenge,
      batch: c.batch,
      agent: c.agent,
      challenger: c.challenger,
      challengerUsdc: c.challengerUsdc,
      treasury: cfg.treasury,
      stakeVault: sl.vault,
      buffer: p.buffer,
      signer: p.signer,
      preimage: p.preimage,
      signature: p.signature,
    }),
    [p.payer],
  );
}

/** Expires a challenge left unresolved past 2 × CHALLENGE_WINDOW_EPOCHS (its stake to the treasury). */
export async function expireChallenge(
  connection: Connection,
  p: { payer: Keypair; challenge: PublicKey },
): Promise<string> {
  const [chInfo, cfgInfo] = await connection.getMultipleAccountsInfo(
    [p.challenge, challenge.findConfigPda()[0]],
    'confirmed',
  );
  const c = chInfo ? challenge.decodeChallenge(chInfo.data) : null;
  const cfg = cfgInfo ? challenge.decodeConfig(cfgInfo.data) : null;
  if (!c || !cfg) throw new ChainAccountError('challenge account or config missing');
  return sendIxs(
    connection,
    expireChallengeInstructions({ challenge: p.challenge, agent: c.agent, treasury: cfg.treasury }),
    [p.payer],
  );
}
