/**
 * Sample live events of every type, valid against their schemas, for tests of the consumers
 * (the browser state, the stream). Producers' own tests build events with the real producers.
 * Not part of the runtime API.
 */
import type { LiveEventData, LiveEventOf, LiveEventType } from './events';

const A = 'aa'.repeat(32);
const B = 'bb'.repeat(32);
const CONV = '11'.repeat(16);
const ADDR = '11111111111111111111111111111111';
const chain = { agent: ADDR, agentHex: A, signature: '5'.repeat(88), slot: 42 };
const ref = { envelopeId: 'ee'.repeat(32), conversationId: CONV, sender: A, recipient: B };
const neg = { negotiation: ADDR, conversationId: CONV, signature: '5'.repeat(88), slot: 43 };
const rep = {
  reliabilityScore: '0',
  cooperationIndex: '0',
  notaryAccuracy: '0',
  totalTasks: '1',
  totalNotarized: '0',
  totalDisputes: '0',
};

const DATA: { [T in LiveEventType]: LiveEventData<T> } = {
  message: {
    id: 'ee'.repeat(32),
    msgType: 3,
    type: 'PROPOSE',
    sender: A,
    recipient: B,
    conversationId: CONV,
    nonce: '7',
    timestamp: '1700000000000123',
    blockRef: '0',
    payloadLen: 3,
    source: 'gossip',
    topic: null,
    receivedAt: 1_700_000_000_000,
  },
  agent_joined: { agent: A, firstSeenBy: 'ee'.repeat(32) },
  reputation_update: { ...ref, agent: B, from: A, score: 80, outcome: 2, role: 0, isDispute: false, reputation: rep },
  notary_assigned: { ...ref, notary: B, assignedBy: A },
  verdict_issued: { ...ref, notary: A, party: B },
  dispute_raised: { ...ref, disputant: A },
  drop: { reason: 'signature', count: 1, total: 1 },
  agent_deactivated: { ...chain, epoch: '3', paidThroughEpoch: '2', prevStatus: 1, status: 2 },
  lease_paid: {
    ...chain,
    payer: ADDR,
    amount: '1000000',
    epoch: '3',
    paidThroughEpoch: '5',
    epochs: 2,
    prevStatus: 0,
    status: 0,
  },
  stake_locked: { ...chain, owner: ADDR, amount: '10000000' },
  stake_slashed: { ...chain, challengerUsdc: ADDR, amount: '10000000', reward: '5000000', toTreasury: '5000000' },
  batch_submitted: {
    ...chain,
    signer: ADDR,
    batch: ADDR,
    epoch: '7',
    batchHash: 'cc'.repeat(32),
    logMerkleRoot: 'dd'.repeat(32),
    messageCount: '12',
    bidCount: 1,
    taskCount: 1,
    verifierCount: 0,
    feedbackCount: 1,
    overflow: 0,
    status: 'unverified',
  },
  challenge_submitted: {
    ...chain,
    challenge: ADDR,
    challenger: ADDR,
    batch: ADDR,
    epoch: '7',
    leaf: 'ff'.repeat(32),
    stake: '1000000',
    pending: 1,
  },
  challenge_resolved: {
    ...chain,
    challenge: ADDR,
    challenger: ADDR,
    batch: ADDR,
    epoch: '7',
    stakeReturned: '1000000',
    stakeToTreasury: '0',
    pending: 0,
    status: 1,
    reason: 0,
    statusName: 'upheld',
  },
  haggle_created: {
    ...neg,
    buyer: ADDR,
    seller: ADDR,
    deposit: '2000',
    deadline: '1700003600',
    createdAt: '1700000000',
    responseWindow: 600,
    decayBps: 50,
    minOfferBps: 0,
    protocolFeeBps: 200,
    maxRounds: 20,
    zopaDetection: 1,
  },
  haggle_joined: { ...neg, seller: ADDR, at: '1700000001' },
  haggle_offer: {
    ...neg,
    amount: '400',
    decay: '10',
    escrow: '1990',
    at: '1700000002',
    side: 1,
    round: 1,
    status: 2,
    metadata: '00'.repeat(64),
    statusName: 'proposed',
  },
  haggle_committed: { ...neg, commitment: 'cc'.repeat(32), side: 1 },
  haggle_revealed: { ...neg, price: `${'00'.repeat(15)}64`, side: 2, bothRevealed: 1, zopa: 1 },
  haggle_accepted: { ...neg, amount: '700', at: '1700000009', side: 2, round: 4 },
  haggle_settled: {
    ...neg,
    buyer: ADDR,
    seller: ADDR,
    amount: '700',
    fee: '14',
    toSeller: '686',
    refund: '1261',
    decayed: '39',
  },
  haggle_refunded: {
    ...neg,
    buyer: ADDR,
    refund: '1990',
    decayed: '10',
    at: '1700000005',
    status: 7,
    reason: 1,
    side: 2,
    statusName: 'rejected',
    reasonName: 'rejected',
  },
};

/** A valid event of `type` at `at`, its data overridden by `data`. */
export function sampleEvent<T extends LiveEventType>(
  type: T,
  data: Partial<LiveEventData<T>> = {},
  at = 1,
): LiveEventOf<T> {
  return { type, at, data: { ...DATA[type], ...data } } as LiveEventOf<T>;
}
