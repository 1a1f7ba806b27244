/**
 * The agent page's reads that stay the same size however long the agent has been on the mesh:
 * its stake and lease, a page of its batches (each once, with its verdict, the authoritative fold
 * after it, its log against the mesh and its challenges; GET /api/agents/{id}/batches pages on)
 * and the one a link pins (`?batch=<epoch>`),
 * the authoritative reputation from the newest stored fold, and the first page of its
 * challenges. Each is an index read of one agent's newest rows (lib/store agent-chain.ts,
 * reputation-points.ts); nothing here refolds or lists the agent's whole history.
 */
import 'server-only';
import { fromHex } from '../../lib/protocol/hex';
import { decayAfterBatch } from '../../lib/protocol/reputation';
import type {
  AgentBatchPage,
  AgentChainView,
  AuthoritativeSummary,
  ChallengeList,
  ChallengeRowView,
} from '../../lib/wire';
import { base58 } from '../../lib/wire/format';
import { unknownReason } from './reconciliation';
import type { Services } from './services';

/** Batches, challenges and conversations on the page's first screen of each list. */
export const AGENT_PAGE_ROWS = {
  batches: 10,
  challenges: 10,
  pending: 10,
  conversations: 10,
  envelopes: 10,
  counterparties: 10,
} as const;
/** Conversations counted up to this many (then "this many or more"). */
export const CONVERSATION_COUNT_CAP = 1_000;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** The agent's stake and lease as the chain section shows them. */
export async function loadStakeLease(o: Services, agentHex: string): Promise<Pick<AgentChainView, 'stake' | 'lease'>> {
  const { stake, lease } = await o.reads.agentStakeLease(fromHex(agentHex));
  return {
    stake: stake ? { amount: stake.amount.toString(), status: stake.status, slot: stake.slot.toString() } : null,
    lease: lease
      ? {
          paidThroughEpoch: lease.paidThroughEpoch.toString(),
          lastPaidEpoch: lease.lastPaidEpoch?.toString() ?? null,
          missedEpochs: lease.missedEpochs,
          active: lease.active,
        }
      : null,
  };
}

/**
 * One page of the agent's batches, newest epoch first, before epoch `before` when given; with
 * `epoch`, just the batch of that epoch if there is one (no `next`).
 */
export async function loadAgentBatches(
  o: Services,
  agentHex: string,
  p: { limit: number; before?: string; epoch?: string },
): Promise<AgentBatchPage> {
  const agent = fromHex(agentHex);
  const page = await o.reads.listAgentBatches(
    agent,
    p.epoch !== undefined
      ? { limit: 1, epoch: BigInt(p.epoch) }
      : { limit: p.limit, before: p.before === undefined ? undefined : BigInt(p.before) },
  );
  const address = base58(agentHex);
  const rows = page.rows.map(({ batch: b, point, reconciliation: r, challenges }) => ({
    agent: agentHex,
    agentAddress: address,
    epoch: b.epoch.toString(),
    batchHash: hex(b.batchHash),
    logMerkleRoot: hex(b.root),
    slot: b.slot.toString(),
    signature: b.signature ?? null,
    status: b.status,
    uploadedLogRoot: b.logRoot ? hex(b.logRoot) : null,
    data: b.data ?? null,
    after: point
      ? {
          reliabilityScore: point.state.reliabilityScore.toString(),
          cooperationIndex: point.state.cooperationIndex.toString(),
          folded: point.folded,
        }
      : null,
    reconciliation: {
      logEntries: r.logEntries,
      seen: r.seen,
      seenNotLogged: r.seenNotLogged,
      loggedNotSeen: r.loggedNotSeen,
      unknownReason: r.seen === null ? (unknownReason(b.status) ?? "the verdict's comparison is not stored yet") : null,
    },
    challenges,
  }));
  return {
    agent: agentHex,
    rows,
    next: p.epoch === undefined && page.more && rows.length ? rows[rows.length - 1].epoch : null,
  };
}

/**
 * The authoritative reputation as at the end of the agent's latest batch epoch (what GET
 * /api/reputation/{agent} folds from every verified log): the newest batch point decayed through
 * that epoch. Unknown, with the reason, when the newest verified batch has no point yet.
 */
export async function loadAuthoritative(o: Services, agentHex: string): Promise<AuthoritativeSummary> {
  const b = await o.reads.authoritativeBasis(fromHex(agentHex));
  const range = { fromEpoch: b.firstEpoch?.toString() ?? null, toEpoch: b.lastEpoch?.toString() ?? null };
  if (b.lastVerified !== null && (b.point === null || b.point.epoch < b.lastVerified)) {
    return {
      known: false,
      state: null,
      folded: b.point?.folded ?? 0,
      ...range,
      reason:
        `the batch of epoch ${b.lastVerified} is verified but not ` +
        `folded yet${b.point ? ` (the fold reaches epoch ${b.point.epoch})` : ''}` +
        `: the indexer folds it from the uploaded log`,
    };
  }
  const s = b.point && b.lastEpoch !== null ? decayAfterBatch(b.point.state, b.point.epoch, b.lastEpoch) : null;
  const zero = {
    reliabilityScore: '0',
    cooperationIndex: '0',
    notaryAccuracy: '0',
    totalTasks: '0',
    totalNotarized: '0',
    totalDisputes: '0',
  };
  return {
    known: true,
    reason: null,
    folded: b.point?.folded ?? 0,
    ...range,
    state: s
      ? {
          reliabilityScore: s.reliabilityScore.toString(),
          cooperationIndex: s.cooperationIndex.toString(),
          notaryAccuracy: s.notaryAccuracy.toString(),
          totalTasks: s.totalTasks.toString(),
          totalNotarized: s.totalNotarized.toString(),
          totalDisputes: s.totalDisputes.toString(),
        }
      : zero,
  };
}

/** A page of challenges as the agent page lists them: the account's data (the API's `data`) is not shown there. */
const challengeLines = (l: ChallengeList): { challenges: ChallengeRowView[]; next: string | null } => ({
  challenges: l.challenges.map((c) => ({
    address: c.address,
    agentAddress: c.agentAddress,
    epoch: c.epoch,
    challenger: c.challenger,
    status: c.status,
    transitions: c.transitions,
  })),
  next: l.next,
});

/** The agent's newest challenges (by batch epoch) and its pending ones, a bounded page each, as the page lists them. */
export async function loadAgentChallenges(
  o: Services,
  agentHex: string,
): Promise<{ newest: ReturnType<typeof challengeLines>; pending: ReturnType<typeof challengeLines> } | null> {
  if (!o.chain) return null;
  const agent = fromHex(agentHex);
  const [newest, pending] = await Promise.all([
    o.chain.challengesPage({ agent, sort: 'epoch', order: 'desc', limit: AGENT_PAGE_ROWS.challenges }),
    o.chain.challengesPage({ agent, status: 'pending', sort: 'epoch', order: 'desc', limit: AGENT_PAGE_ROWS.pending }),
  ]);
  return { newest: challengeLines(newest), pending: challengeLines(pending) };
}
