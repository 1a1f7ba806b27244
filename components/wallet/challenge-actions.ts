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
  bufferAccountSize,
  type Connection,
  challenge,
  closeBufferInstructions,
  type EconomyConfig,
  expireChallengeInstructions,
  findEvidenceBuffers,
  freshSigner,
  PublicKey,
  readChallenge,
  resolveChallengeInstructions,
  stageBufferInstructions,
  stakeLock,
  submitChallengeInstructions,
  usdcAccountOf,
} from '../../lib/chain';
import { CHALLENGE_REWARD_BPS, CHALLENGE_STAKE, CHALLENGE_WINDOW_EPOCHS } from '../../lib/protocol/constants';
import { type ChallengeCandidate, hexToBytes } from '../../lib/wire';
import { usdc } from './format';
import { type ChallengeOutcome, challengeOutcome, type TargetStake } from './guards';
import type { PreviewHints } from './preview';
import type { BuiltAction } from './run-action';

const BUFFER_LABEL = 'evidence buffer';
const BUFFER_BACK = 'to the challenger when the challenge is resolved (by anyone); after an expiry, by closing it';

async function stage(
  connection: Connection,
  authority: PublicKey,
  bytes: Uint8Array,
): Promise<{ buffer: PublicKey; lamports: number; txs: BuiltAction['txs'] }> {
  const buffer = freshSigner();
  const lamports = await connection.getMinimumBalanceForRentExemption(bufferAccountSize(bytes.length));
  const lists = stageBufferInstructions({ authority, buffer: buffer.publicKey, bytes, lamports });
  return {
    buffer: buffer.publicKey,
    lamports,
    txs: lists.map((ixs, i) => ({ ixs, partialSigners: i === 0 ? [buffer] : [] })),
  };
}

/** The challenger's evidence buffers holding exactly `bytes` (staged at open), from the chain. */
export async function findBuffer(
  connection: Connection,
  challenger: PublicKey,
  bytes: Uint8Array,
): Promise<PublicKey | null> {
  const list = await findEvidenceBuffers(connection, challenger);
  for (const { pubkey, account } of list) {
    const b = challenge.decodeBuffer(account.data);
    if (!b || b.len !== bytes.length) continue;
    const data = account.data.subarray(challenge.BUFFER_SIZE, challenge.BUFFER_SIZE + bytes.length);
    if (data.length === bytes.length && data.every((x, i) => x === bytes[i])) return pubkey;
  }
  return null;
}

/**
 * The agent's Stake account now, from the chain; a failed read is kept with its reason (the outcome is then unknown).
 */
export async function readTargetStake(connection: Connection, agent: PublicKey): Promise<TargetStake> {
  try {
    const info = await connection.getAccountInfo(stakeLock.findStakePda(agent)[0], 'confirmed');
    if (!info) return null;
    const s = stakeLock.decodeStake(info.data);
    return s ? { amount: s.amount, status: s.status } : { error: 'the account is not a Stake account' };
  } catch (e) {
    return { error: String((e as Error)?.message ?? e) };
  }
}

const previewOutcome = (o: ChallengeOutcome): NonNullable<PreviewHints['outcome']> => ({
  targetStake: o.slashable,
  gets: o.gets,
  stakeText: o.stakeText,
  outcomeText: o.outcomeText,
});

/**
 * submit_challenge + the evidence buffer, signed by `challenger`; the preview says what is at stake, from the target's
 * real stake.
 */
export async function buildOpenChallenge(
  connection: Connection,
  challenger: PublicKey,
  economy: EconomyConfig,
  c: ChallengeCandidate,
): Promise<BuiltAction> {
  const agent = new PublicKey(c.agentAddress);
  const submit = submitChallengeInstructions({
    challenger,
    challengerUsdc: usdcAccountOf(economy.usdcMint, challenger),
    agent,
    epoch: BigInt(c.epoch),
    leaf: hexToBytes(c.leaf, 32),
  });
  const [staged, target] = await Promise.all([
    stage(connection, challenger, hexToBytes(c.bytes)),
    readTargetStake(connection, agent),
  ]);
  const epoch = BigInt(c.epoch);
  const outcome = challengeOutcome(c.contradicted, target);
  const cs = `${usdc(CHALLENGE_STAKE)} USDC`;
  const share =
    outcome.reward === null
      ? `${Number(CHALLENGE_REWARD_BPS) / 100}% of the agent's stake (unknown)`
      : `${Number(CHALLENGE_REWARD_BPS) / 100}% of the agent's stake: ${usdc(outcome.reward)} USDC`;
  const stakes = [
    `${cs} is locked as the challenge stake until the challenge is ` +
      `resolved (from epoch ${epoch + CHALLENGE_WINDOW_EPOCHS + 1n}).`,
    `Upheld (the batch left this entry out): the ${cs} comes back plus ${share}. Rejected ` +
      `(the batch reports it): a wrong challenge forfeits the ${cs} to the treasury. Unresolved ` +
      `through epoch ${epoch + 2n * CHALLENGE_WINDOW_EPOCHS}: anyone may expire it from ` +
      `epoch ${epoch + 2n * CHALLENGE_WINDOW_EPOCHS + 1n}, and the ${cs} goes to the treasury.`,
  ];
  if (!c.contradicted)
    stakes.push(
      `The observatory finds this entry in the batch: this challenge will most likely be rejected and lose the ${cs}.`,
    );
  return {
    outcome: previewOutcome(outcome),
    txs: [{ ixs: submit }, ...staged.txs],
    notes: [
      { address: submit[0].keys[4].pubkey, label: 'challenge record', size: challenge.CHALLENGE_SIZE },
      {
        address: challenge.findAgentPda(agent)[0],
        label: "the agent's challenge counters",
        size: challenge.AGENT_CHALLENGES_SIZE,
      },
      { address: staged.buffer, label: BUFFER_LABEL, rentBack: BUFFER_BACK },
    ],
    stakes,
  };
}

/**
 * resolve_challenge with the challenger's buffer from the open when it exists (anyone may send it),
 * else a fresh buffer with the same evidence (then `payer` must be the challenger).
 */
export async function buildResolve(
  connection: Connection,
  payer: PublicKey,
  economy: EconomyConfig,
  challengeAddress: PublicKey,
  c: ChallengeCandidate,
): Promise<BuiltAction> {
  const ch = await readChallenge(connection, challengeAddress);
  if (!ch) throw new Error(`no Challenge account at ${challengeAddress.toBase58()}`);
  const bytes = hexToBytes(c.bytes);
  const existing = await findBuffer(connection, ch.challenger, bytes);
  if (!existing && !ch.challenger.equals(payer))
    throw new Error("the challenger's evidence buffer is gone, and only the challenger can stage a new one");
  const staged = existing ? null : await stage(connection, payer, bytes);
  const buffer = existing ?? staged!.buffer;
  const resolve = resolveChallengeInstructions({
    challenge: challengeAddress,
    batch: ch.batch,
    agent: ch.agent,
    challenger: ch.challenger,
    challengerUsdc: ch.challengerUsdc,
    treasury: economy.treasury,
    stakeVault: economy.stakeVault,
    buffer,
    signer: new PublicKey(c.signer),
    preimage: hexToBytes(c.preimage),
    signature: hexToBytes(c.signature, 64),
  });
  const mine = ch.challenger.equals(payer);
  const o = challengeOutcome(c.contradicted, await readTargetStake(connection, ch.agent));
  const cs = `${usdc(ch.stake)} USDC`;
  const share =
    o.reward === null ? "its share of the agent's stake (unknown)" : `${usdc(o.reward)} USDC of the agent's stake`;
  const stakes = [
    mine
      ? `The program decides: upheld or void, your ${cs} comes back ` +
        `(upheld: plus ${share}); rejected, it goes to the treasury.`
      : "The program decides; the challenger's stake and the evidence rent go " +
        'to the challenger or the treasury, not to you: you pay only the fee.',
  ];
  // What the challenger gets is this wallet's outcome only when it is the challenger.
  const outcome = mine ? previewOutcome(o) : undefined;
  if (existing) {
    return {
      outcome,
      txs: [{ ixs: resolve }],
      notes: [{ address: buffer, label: `${BUFFER_LABEL}${mine ? '' : ' (rent to the challenger)'}` }],
      stakes,
    };
  }
  return {
    outcome,
    txs: [...staged!.txs, { ixs: resolve }],
    notes: [
      {
        address: buffer,
        label: BUFFER_LABEL,
        rentBack: 'in the last transaction of this action, when resolve_challenge closes it',
      },
    ],
    laterReturns: [{ address: buffer, lamports: BigInt(staged!.lamports), label: BUFFER_LABEL }],
    usdcUnknown:
      'the evidence is staged first, so resolve_challenge cannot be simulated ' +
      'before signing: +10 USDC when upheld or void, nothing when rejected',
    stakes,
  };
}

/** expire_challenge; permissionless. */
export function buildExpire(challengeAddress: PublicKey, agent: PublicKey, economy: EconomyConfig): BuiltAction {
  return {
    txs: [{ ixs: expireChallengeInstructions({ challenge: challengeAddress, agent, treasury: economy.treasury }) }],
    stakes: [
      "The challenger's 10 USDC goes to the treasury. The evidence " +
        'buffer stays; its challenger can close it to get its rent back.',
    ],
  };
}

/** close_buffer for the connected challenger: its rent back. */
export function buildCloseBuffer(authority: PublicKey, buffer: PublicKey): BuiltAction {
  return {
    txs: [{ ixs: closeBufferInstructions({ authority, buffer }) }],
    notes: [{ address: buffer, label: BUFFER_LABEL }],
  };
}

/** The candidate whose leaf a Challenge account committed to (so resolve uses that entry's evidence). */
export async function candidateFor(
  connection: Connection,
  challengeAddress: PublicKey,
  agentHex: string,
  epoch: string,
): Promise<ChallengeCandidate | null> {
  const [ch, res] = await Promise.all([
    readChallenge(connection, challengeAddress),
    fetch(`/api/batches/challengeable?agent=${agentHex}&epoch=${epoch}`, { cache: 'no-store' }),
  ]);
  if (!ch || !res.ok) return null;
  const list = ((await res.json()) as { candidates: ChallengeCandidate[] }).candidates;
  const leaf = Array.from(ch.leaf, (b) => b.toString(16).padStart(2, '0')).join('');
  return list.find((c) => c.leaf === leaf) ?? null;
}
