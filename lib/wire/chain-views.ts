/**
 * JSON view models of the chain side: `/api/batches`, `/api/challenges`,
 * `/api/reputation/{agent}`, the agent page's chain section and the overview's chain summary.
 * Agents appear both as hex (`agent`) and base58 (`agentAddress`); u64 as decimal strings.
 */
import { z } from 'zod';
import { BatchCheckSchema } from './chain-events';
import { base58Address, hex32, intString, nonNegInt, u64String } from './codec';

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
  /**
   * When the batch's slot was produced (ISO 8601, UTC): the chain's block time as stored with the
   * transaction's event; null where no indexed event carries it; absent from the paged list.
   */
  blockTime: z.string().nullable().optional(),
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
  reliabilityScore: intString,
  cooperationIndex: intString,
  notaryAccuracy: intString,
  totalTasks: intString,
  totalNotarized: intString,
  totalDisputes: intString,
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
  lease: z
    .object({
      paidThroughEpoch: u64String,
      lastPaidEpoch: u64String.nullable(),
      missedEpochs: nonNegInt,
      active: z.boolean(),
    })
    .nullable(),
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

/**
 * The SATI addresses the browser applies SATI's rule with (lib/chain/sati-signers.ts), from the
 * server's configuration (lib/chain/cluster.ts), base58.
 */
export const SatiAddressesViewSchema = z.object({
  program: base58Address,
  sas: base58Address,
  credential: base58Address,
  delegateSchema: base58Address,
});
export type SatiAddressesView = z.infer<typeof SatiAddressesViewSchema>;

/** How SATI defines its reputation (getReputationSummary), shown beside ours. */
export const SATI_REPUTATION_DEFINITION = 'unweighted average of public feedback scores';

/**
 * SATI's reputation of an agent as this server can give it: PHOTON_URL unset (`not_configured`),
 * or set but not queried (`unsupported`, with the indexer's host).
 */
export const SatiReputationViewSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('not_configured') }),
  z.object({ state: z.literal('unsupported'), photonHost: z.string() }),
]);
export type SatiReputationView = z.infer<typeof SatiReputationViewSchema>;

/**
 * SATI's reputation as this server can show it. Our SATI facts (docs/chain.md) give no Photon
 * query for FeedbackPublicV1 (method, filters, where `score` sits in the compressed data), so a
 * configured indexer is named but not queried rather than guessed at. Only the host is shown: a
 * Photon URL often carries an API key in its query.
 */
export function satiReputationOf(photonUrl: string | undefined): SatiReputationView {
  if (!photonUrl) return { state: 'not_configured' };
  let host = 'its host';
  try {
    host = new URL(photonUrl).host;
  } catch {
    /* config checked it is a URL; keep the placeholder */
  }
  return { state: 'unsupported', photonHost: host };
}

/** One service of a SATI registration file. */
export const RegistrationServiceSchema = z.object({
  name: z.string(),
  endpoint: z.string(),
  version: z.string().optional(),
});

/** What discovery knows of a SATI agent: its registration on chain and its registration file (sanitised). */
export const AgentSatiProfileViewSchema = z.object({
  mint: base58Address,
  memberNumber: u64String,
  /** The mint passes SATI's registration rule now. */
  registered: z.boolean(),
  /** Why not, when it does not. */
  reason: z.string().optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  uri: z.string().optional(),
  description: z.string().optional(),
  /** http(s) URL or raster data: URI only. */
  image: z.string().optional(),
  services: z.array(RegistrationServiceSchema),
  meshEndpoint: z.string().optional(),
  /** The registration file as read (sanitised), when it was. */
  file: z.object({ name: z.string().optional() }).passthrough().optional(),
  /** Why the registration file could not be read. */
  fileError: z.string().optional(),
  /** `ok`, or `failed: …` when the mesh endpoint was dialled. */
  dialed: z.string().optional(),
});
export type AgentSatiProfileView = z.infer<typeof AgentSatiProfileViewSchema>;

/** Discovery's counters: agents read, files read, failures by reason, dials. */
export const SatiDiscoveryStatsSchema = z.object({
  total: u64String.nullable(),
  agents: nonNegInt,
  nextMember: u64String,
  files: nonNegInt,
  failures: z.record(z.string(), nonNegInt),
  dials: nonNegInt,
  dialFailures: nonNegInt,
  passes: nonNegInt,
  lastError: z.string().nullable(),
});
export type SatiDiscoveryStats = z.infer<typeof SatiDiscoveryStatsSchema>;

/**
 * A SATI registration file as the observatory serves it for its demo agents (the uri they
 * register with): ERC-8004's registration fields with the 0x01 `zerox1-mesh` service.
 */
export const RegistrationFileSchema = z.object({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  services: z.array(RegistrationServiceSchema),
});
export type RegistrationFile = z.infer<typeof RegistrationFileSchema>;

/**
 * What a challenge row (components/wallet/ChallengeRows) needs of a challenge (a page hands over no more than this: not
 * the account's data).
 */
export type ChallengeRowView = Pick<
  ChallengeJson,
  'address' | 'agentAddress' | 'epoch' | 'challenger' | 'status' | 'transitions'
>;
