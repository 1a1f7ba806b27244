/**
 * `data` of the chain live events the indexer publishes (docs/architecture.md, live events):
 * the decoded program event with addresses in base58, byte arrays in hex and u64 as decimal
 * strings, plus the agent in hex (`agentHex`, the form envelopes carry it in), the transaction
 * signature and its slot. The event's own u64 `slot` field is replaced by the transaction's slot
 * (a number).
 */
import { z } from 'zod';
import { base58Address, hex32, nonNegInt, u64String } from './codec';

/** A batch row's check against the uploaded epoch log. */
export const BatchCheckSchema = z.enum(['unverified', 'verified', 'mismatch']);
/** A batch row's check against the uploaded epoch log. */
export type BatchCheck = z.infer<typeof BatchCheckSchema>;

const u8 = nonNegInt.max(255);
const u32 = nonNegInt.max(0xffff_ffff);

/** Fields every chain event carries. */
const chainBase = {
  agent: base58Address,
  agentHex: hex32,
  signature: z.string().min(1),
  slot: nonNegInt,
};

/** LeasePaid. */
export const LeasePaidData = z.object({
  ...chainBase,
  payer: base58Address,
  amount: u64String,
  epoch: u64String,
  paidThroughEpoch: u64String,
  epochs: u32,
  prevStatus: u8,
  status: u8,
});

/** LeaseTicked into `deactivated`. */
export const AgentDeactivatedData = z.object({
  ...chainBase,
  epoch: u64String,
  paidThroughEpoch: u64String,
  prevStatus: u8,
  status: u8,
});

/** StakeLocked. */
export const StakeLockedData = z.object({ ...chainBase, owner: base58Address, amount: u64String });

/** StakeSlashed. */
export const StakeSlashedData = z.object({
  ...chainBase,
  challengerUsdc: base58Address,
  amount: u64String,
  reward: u64String,
  toTreasury: u64String,
});

/** BatchSubmitted, with the indexer's check of the batch against the uploaded log. */
export const BatchSubmittedData = z.object({
  ...chainBase,
  signer: base58Address,
  batch: base58Address,
  epoch: u64String,
  batchHash: hex32,
  logMerkleRoot: hex32,
  messageCount: u64String,
  bidCount: u32,
  taskCount: u32,
  verifierCount: u32,
  feedbackCount: u32,
  overflow: u8,
  status: BatchCheckSchema,
});

/** ChallengeSubmitted. */
export const ChallengeSubmittedData = z.object({
  ...chainBase,
  challenge: base58Address,
  challenger: base58Address,
  batch: base58Address,
  epoch: u64String,
  leaf: hex32,
  stake: u64String,
  pending: u32,
});

/** ChallengeResolved, with the status as a name (`upheld`, `rejected`, ...). */
export const ChallengeResolvedData = z.object({
  ...chainBase,
  challenge: base58Address,
  challenger: base58Address,
  batch: base58Address,
  epoch: u64String,
  stakeReturned: u64String,
  stakeToTreasury: u64String,
  pending: u32,
  status: u8,
  reason: u8,
  statusName: z.string().min(1),
});
