/**
 * An agent's reputation over time (docs/protocol.md §7) for the agent page's chart: the gossip
 * fold at the end of each epoch with FEEDBACK about it, and the authoritative fold after each
 * verified batch, the newest of each as stored (lib/store reputation-points.ts). Scores
 * are fixed point ÷ ONE here (−100..100): a chart, not consensus arithmetic.
 */
import { z } from 'zod';
import { base58Address, u64String } from './codec';

export const ReputationPointSchema = z.object({ tMs: z.number(), reliability: z.number(), cooperation: z.number() });
export type ReputationPoint = z.infer<typeof ReputationPointSchema>;

export const ReputationHistoryViewSchema = z.object({
  gossip: z.array(ReputationPointSchema),
  authoritative: z.array(ReputationPointSchema.extend({ epoch: u64String })),
  /** Older epochs exist than the points given (the chart shows the newest ones). */
  gossipEarlier: z.boolean().optional(),
  authoritativeEarlier: z.boolean().optional(),
});
export type ReputationHistoryView = z.infer<typeof ReputationHistoryViewSchema>;

/**
 * Stake and lease of an agent at the end of one epoch, from its indexed chain events
 * (lib/indexer/economy.ts). Amounts are USDC base units (6 decimals) as exact decimal strings.
 */
export const EconomyPointSchema = z.object({
  epoch: z.number().int(),
  /** Stake held after the last event up to this epoch's end. */
  stake: u64String,
  /** The stake account's status then: none, locked, unlocking, claimed, slashed. */
  stakeStatus: z.string(),
  /** Lease paid through this epoch, null before the first payment. */
  paidThroughEpoch: z.number().int().nullable(),
  /** Whether the lease was still active (not deactivated), null before the first payment. */
  leaseActive: z.boolean().nullable(),
  /**
   * What happened in the epoch, in chain order: `stake locked`, `unlock queued`, `stake claimed`, `slashed`,
   * `lease paid`, `lease ticked`, `deactivated`, `challenged`, `challenge upheld`, `challenge rejected`, ...
   */
  events: z.array(z.string()),
});
export type EconomyPoint = z.infer<typeof EconomyPointSchema>;

/** GET /api/agents/{id}/economy: the agent's economy series and the indexed accounts it ends on. */
export const EconomyViewSchema = z.object({
  agent: base58Address,
  /** False when this process has no chain (or no deployment): then `reason` says why and `points` is empty. */
  known: z.boolean(),
  reason: z.string().nullable(),
  epochSeconds: z.number().int().positive().nullable(),
  /** The epoch now by the chain's epoch length (the last point's epoch). */
  currentEpoch: z.number().int().nullable(),
  points: z.array(EconomyPointSchema),
  /**
   * The indexed stake and lease accounts (the chain's own state, read at the last transaction touching them): the last
   * point equals them.
   */
  accounts: z.object({
    stake: z.object({ amount: u64String, status: z.string(), slot: u64String }).nullable(),
    lease: z.object({ paidThroughEpoch: u64String, active: z.boolean(), slot: u64String }).nullable(),
  }),
  /** Null when the indexed events explain the accounts; else why the series before them is inferred. */
  historyNote: z.string().nullable(),
});
export type EconomyView = z.infer<typeof EconomyViewSchema>;
