/**
 * An agent's reputation over time (docs/protocol.md §7) for the agent page's chart: the gossip
 * fold after each FEEDBACK about it, and the authoritative fold after each verified batch. Scores
 * are fixed point ÷ ONE here (−100..100): a chart, not consensus arithmetic.
 */
import { z } from 'zod';
import { u64String } from './codec';

export const ReputationPointSchema = z.object({ tMs: z.number(), reliability: z.number(), cooperation: z.number() });
export type ReputationPoint = z.infer<typeof ReputationPointSchema>;

export const ReputationHistoryViewSchema = z.object({
  gossip: z.array(ReputationPointSchema),
  authoritative: z.array(ReputationPointSchema.extend({ epoch: u64String })),
});
export type ReputationHistoryView = z.infer<typeof ReputationHistoryViewSchema>;

/** Stake and lease of an agent per epoch, from its chain events (USDC base units as numbers). */
export const EconomyPointSchema = z.object({
  epoch: z.number(),
  /** Stake locked after the last event up to this epoch. */
  stake: z.number(),
  /** Lease paid through this epoch, null before the first payment. */
  paidThroughEpoch: z.number().nullable(),
  /** What happened: `lease paid`, `stake locked`, `slashed`, `deactivated`. */
  events: z.array(z.string()),
});
export type EconomyPoint = z.infer<typeof EconomyPointSchema>;
