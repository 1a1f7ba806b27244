/**
 * JSON view models of the chain side: `/api/batches`, `/api/challenges`,
 * `/api/reputation/{agent}`, the agent page's chain section and the overview's chain summary.
 * Agents appear both as hex (`agent`) and base58 (`agentAddress`); u64 as decimal strings.
 */
import { z } from 'zod';
import { base58Address, nonNegInt, hex32, intString, u64String } from './codec';
import { BatchCheckSchema } from './chain-events';

/** One batch as GET /api/batches returns it. */
export const BatchJsonSchema = z.object({
  agent: hex32,
  agentAddress: base58Address,
  epoch: u64String,
  batchHash: hex32,
  logMerkleRoot: hex32,
  slot: u64String,
  signature: z.string().nullable(),
  status: BatchCheckSchema,
  uploadedLogRoot: hex32.nullable(),
  /** The indexer's JSON of the batch account (counts, signer); null when not read. */
  data: z.unknown(),
});
export type BatchJson = z.infer<typeof BatchJsonSchema>;

/** One status change of a challenge. */
export const ChallengeTransitionSchema = z.object({ status: z.string(), slot: u64String, signature: z.string() });

/** One challenge as GET /api/challenges returns it, with its transitions. */
export const ChallengeJsonSchema = z.object({
  address: base58Address,
  agent: hex32,
  agentAddress: base58Address,
  epoch: u64String,
  challenger: base58Address,
  status: z.string(),
  slot: u64String,
  openedSlot: u64String,
  data: z.unknown(),
  transitions: z.array(ChallengeTransitionSchema),
});
export type ChallengeJson = z.infer<typeof ChallengeJsonSchema>;

const reputationFields = {
  reliabilityScore: intString, cooperationIndex: intString, notaryAccuracy: intString,
  totalTasks: intString, totalNotarized: intString, totalDisputes: intString,
};

/** GET /api/reputation/{agent}: the gossip fold and the authoritative fold over verified batches. */
export const ReputationJsonSchema = z.object({
  agent: hex32,
  agentAddress: base58Address,
  gossip: z.object({ ...reputationFields, lastEpoch: nonNegInt.nullable(), updatedAt: z.string() }).nullable(),
  /** `toEpoch` is -1 while the agent has no batch. */
  authoritative: z.object({ ...reputationFields, fromEpoch: intString, toEpoch: intString }),
  batches: z.array(z.object({ epoch: u64String, status: BatchCheckSchema, folded: z.boolean() })),
});
export type ReputationJson = z.infer<typeof ReputationJsonSchema>;

/** The chain's part of an agent page: stake, lease, batches, challenges. */
export const AgentChainViewSchema = z.object({
  stake: z.object({ amount: u64String, status: z.string(), slot: u64String }).nullable(),
  lease: z.object({ paidThroughEpoch: u64String, lastPaidEpoch: u64String.nullable(), missedEpochs: nonNegInt, active: z.boolean() }).nullable(),
  batches: z.array(BatchJsonSchema),
  challenges: z.array(ChallengeJsonSchema),
});
export type AgentChainView = z.infer<typeof AgentChainViewSchema>;

/** Chain summary of the overview: batches, challenges, stakes, leases. */
export const ChainOverviewViewSchema = z.object({
  batches: nonNegInt,
  verifiedBatches: nonNegInt,
  challenges: nonNegInt,
  resolvedChallenges: nonNegInt,
  lockedStakes: nonNegInt,
  activeLeases: nonNegInt,
  lastChallenge: z.object({ address: z.string(), agent: z.string(), epoch: z.string(), status: z.string() }).nullable(),
});
export type ChainOverviewView = z.infer<typeof ChainOverviewViewSchema>;

/** GET /api/batches; `next` was added later, so clients that only read `batches` keep working. */
export const BatchListSchema = z.object({
  batches: z.array(BatchJsonSchema),
  /** Pass as `before` (with the same sort) for the next page; null at the end. */
  next: z.string().nullable(),
});
export type BatchList = z.infer<typeof BatchListSchema>;
/** GET /api/challenges. */
export const ChallengeListSchema = z.object({
  challenges: z.array(ChallengeJsonSchema),
  /** Pass as `before` (with the same sort and order) for the next page; null at the end. */
  next: z.string().nullable(),
});
export type ChallengeList = z.infer<typeof ChallengeListSchema>;
