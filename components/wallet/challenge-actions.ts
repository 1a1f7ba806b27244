/**
 * The challenge actions as instruction lists for run-action.ts, from a pre-filled candidate
 * (lib/wire ChallengeCandidate: leaf, evidence bytes, preimage, signature): open = submit_challenge
 * then stage the evidence buffer (a fresh account, create + init, then the chunks); resolve
 * (anyone, after the window) = the challenger's buffer staged at open when it is still there
 * (one transaction, so its whole effect is simulated), else a fresh buffer with the same evidence
 * (only the challenger can stage one), then compute budget + Ed25519 + resolve_challenge, which
 * closes the buffer and returns its rent to the challenger; expire (anyone, after twice the
 * window); close a buffer left after an expiry. Each carries the preview's notes and stakes.
 */
import {
  PublicKey, bufferAccountSize, challenge, closeBufferInstructions, expireChallengeInstructions, findEvidenceBuffers, freshSigner, readChallenge, resolveChallengeInstructions,
  stageBufferInstructions, submitChallengeInstructions, usdcAccountOf, type Connection, type EconomyConfig,
} from '../../lib/chain';
import { CHALLENGE_REWARD_BPS, CHALLENGE_WINDOW_EPOCHS } from '../../lib/protocol/constants';
import { hexToBytes, type ChallengeCandidate } from '../../lib/wire';
import type { BuiltAction } from './run-action';

const BUFFER_LABEL = 'evidence buffer';
const BUFFER_BACK = 'to the challenger when the challenge is resolved (by anyone); after an expiry, by closing it';

async function stage(connection: Connection, authority: PublicKey, bytes: Uint8Array): Promise<{ buffer: PublicKey; lamports: number; txs: BuiltAction['txs'] }> {
  const buffer = freshSigner();
  const lamports = await connection.getMinimumBalanceForRentExemption(bufferAccountSize(bytes.length));
  const lists = stageBufferInstructions({ authority, buffer: buffer.publicKey, bytes, lamports });
  return { buffer: buffer.publicKey, lamports, txs: lists.map((ixs, i) => ({ ixs, partialSigners: i === 0 ? [buffer] : [] })) };
}

/** The challenger's evidence buffers holding exactly `bytes` (staged at open), from the chain. */
export async function findBuffer(connection: Connection, challenger: PublicKey, bytes: Uint8Array): Promise<PublicKey | null> {
  const list = await findEvidenceBuffers(connection, challenger);
  for (const { pubkey, account } of list) {
    const b = challenge.decodeBuffer(account.data);
    if (!b || b.len !== bytes.length) continue;
    const data = account.data.subarray(challenge.BUFFER_SIZE, challenge.BUFFER_SIZE + bytes.length);
    if (data.length === bytes.length && data.every((x, i) => x === bytes[i])) return pubkey;
  }
  return null;
}


/** submit_challenge + the evidence buffer, signed by `challenger`; the preview says what is at stake. */
export async function buildOpenChallenge(connection: Connection, challenger: PublicKey, economy: EconomyConfig, c: ChallengeCandidate): Promise<BuiltAction> {
  const agent = new PublicKey(c.agentAddress);
  const submit = submitChallengeInstructions({ challenger, challengerUsdc: usdcAccountOf(economy.usdcMint, challenger), agent, epoch: BigInt(c.epoch), leaf: hexToBytes(c.leaf, 32) });
  const staged = await stage(connection, challenger, hexToBytes(c.bytes));
  const epoch = BigInt(c.epoch);
  const stakes = [
    `10 USDC is locked as the challenge stake until the challenge is resolved (from epoch ${epoch + CHALLENGE_WINDOW_EPOCHS + 1n}).`,
    `Upheld (the batch left this entry out): the 10 USDC comes back plus ${Number(CHALLENGE_REWARD_BPS) / 100}% of the agent's stake. Rejected (the batch reports it): a wrong challenge forfeits the 10 USDC to the treasury. Unresolved through epoch ${epoch + 2n * CHALLENGE_WINDOW_EPOCHS}: anyone may expire it from epoch ${epoch + 2n * CHALLENGE_WINDOW_EPOCHS + 1n}, and the 10 USDC goes to the treasury.`,
  ];
  if (!c.contradicted) stakes.push('The observatory finds this entry in the batch: this challenge will most likely be rejected and lose the 10 USDC.');
  return {
    txs: [{ ixs: submit }, ...staged.txs],
    notes: [
      { address: submit[0].keys[4].pubkey, label: 'challenge record', size: challenge.CHALLENGE_SIZE },
      { address: challenge.findAgentPda(agent)[0], label: 'the agent\'s challenge counters', size: challenge.AGENT_CHALLENGES_SIZE },
      { address: staged.buffer, label: BUFFER_LABEL, rentBack: BUFFER_BACK },
    ],
    stakes,
  };
}

/**
 * resolve_challenge with the challenger's buffer from the open when it exists (anyone may send it),
 * else a fresh buffer with the same evidence (then `payer` must be the challenger).
 */
export async function buildResolve(connection: Connection, payer: PublicKey, economy: EconomyConfig, challengeAddress: PublicKey, c: ChallengeCandidate): Promise<BuiltAction> {
  const ch = await readChallenge(connection, challengeAddress);
  if (!ch) throw new Error(`no Challenge account at ${challengeAddress.toBase58()}`);
  const bytes = hexToBytes(c.bytes);
  const existing = await findBuffer(connection, ch.challenger, bytes);
  if (!existing && !ch.challenger.equals(payer)) throw new Error('the challenger\'s evidence buffer is gone, and only the challenger can stage a new one');
  const staged = existing ? null : await stage(connection, payer, bytes);
  const buffer = existing ?? staged!.buffer;
  const resolve = resolveChallengeInstructions({
    challenge: challengeAddress, batch: ch.batch, agent: ch.agent, challenger: ch.challenger, challengerUsdc: ch.challengerUsdc, treasury: economy.treasury, stakeVault: economy.stakeVault,
    buffer, signer: new PublicKey(c.signer), preimage: hexToBytes(c.preimage), signature: hexToBytes(c.signature, 64),
  });
  const mine = ch.challenger.equals(payer);
  const stakes = [
    mine ? 'The program decides: upheld or void, your 10 USDC comes back (upheld: plus half the agent\'s stake); rejected, it goes to the treasury.' : 'The program decides; the challenger\'s stake and the evidence rent go to the challenger or the treasury, not to you: you pay only the fee.',
  ];
  if (existing) {
    return { txs: [{ ixs: resolve }], notes: [{ address: buffer, label: `${BUFFER_LABEL}${mine ? '' : ' (rent to the challenger)'}` }], stakes };
  }
  return {
    txs: [...staged!.txs, { ixs: resolve }],
    notes: [{ address: buffer, label: BUFFER_LABEL, rentBack: 'in the last transaction of this action, when resolve_challenge closes it' }],
    laterReturns: [{ address: buffer, lamports: BigInt(staged!.lamports), label: BUFFER_LABEL }],
    usdcUnknown: 'the evidence is staged first, so resolve_challenge cannot be simulated before signing: +10 USDC when upheld or void, nothing when rejected',
    stakes,
  };
}

/** expire_challenge; permissionless. */
export function buildExpire(challengeAddress: PublicKey, agent: PublicKey, economy: EconomyConfig): BuiltAction {
  return {
    txs: [{ ixs: expireChallengeInstructions({ challenge: challengeAddress, agent, treasury: economy.treasury }) }],
    stakes: ['The challenger\'s 10 USDC goes to the treasury. The evidence buffer stays; its challenger can close it to get its rent back.'],
  };
}

/** close_buffer for the connected challenger: its rent back. */
export function buildCloseBuffer(authority: PublicKey, buffer: PublicKey): BuiltAction {
  return { txs: [{ ixs: closeBufferInstructions({ authority, buffer }) }], notes: [{ address: buffer, label: BUFFER_LABEL }] };
}

/** The candidate whose leaf a Challenge account committed to (so resolve uses that entry's evidence). */
export async function candidateFor(connection: Connection, challengeAddress: PublicKey, agentHex: string, epoch: string): Promise<ChallengeCandidate | null> {
  const [ch, res] = await Promise.all([readChallenge(connection, challengeAddress), fetch(`/api/batches/challengeable?agent=${agentHex}&epoch=${epoch}`, { cache: 'no-store' })]);
  if (!ch || !res.ok) return null;
  const list = ((await res.json()) as { candidates: ChallengeCandidate[] }).candidates;
  const leaf = Array.from(ch.leaf, (b) => b.toString(16).padStart(2, '0')).join('');
  return list.find((c) => c.leaf === leaf) ?? null;
}
