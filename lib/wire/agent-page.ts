/**
 * The agent page's chain views: its batches listed once each (the verdict, the authoritative
 * fold after it, the reconciliation of its log against the mesh and its challenges), a page at a
 * time newest first (GET /api/agents/{id}/batches), and the authoritative reputation read from the
 * newest stored fold. Scores are fixed point (1,000,000 = 1 point) as decimal strings.
 */
import { z } from 'zod';
import { BatchJsonSchema } from './chain-views';
import { hex32, intString, nonNegInt, u64String } from './codec';

const reputationFields = {
  reliabilityScore: intString,
  cooperationIndex: intString,
  notaryAccuracy: intString,
  totalTasks: intString,
  totalNotarized: intString,
  totalDisputes: intString,
};

/** One batch of the agent, with what every other list of the page used to repeat about it. */
export const AgentBatchRowSchema = BatchJsonSchema.extend({
  /** The authoritative fold after this batch; null when it is not folded (only a verified batch is). */
  after: z.object({ reliabilityScore: intString, cooperationIndex: intString, folded: nonNegInt }).nullable(),
  /** Its log against the mesh as stored at the verdict; figures null with `unknownReason` unless verified. */
  reconciliation: z.object({
    logEntries: nonNegInt,
    seen: nonNegInt.nullable(),
    seenNotLogged: nonNegInt.nullable(),
    loggedNotSeen: nonNegInt.nullable(),
    unknownReason: z.string().nullable(),
  }),
  /** Challenges against this batch. */
  challenges: nonNegInt,
});
export type AgentBatchRow = z.infer<typeof AgentBatchRowSchema>;

/**
 * GET /api/agents/{id}/batches: a page of the agent's batches, newest epoch first; `next` is the `before` of the
 * following page.
 */
export const AgentBatchPageSchema = z.object({
  agent: hex32,
  rows: z.array(AgentBatchRowSchema),
  next: u64String.nullable(),
});
export type AgentBatchPage = z.infer<typeof AgentBatchPageSchema>;

/**
 * The authoritative reputation (docs/protocol.md §7) as at the end of the agent's latest batch
 * epoch: the newest stored fold with the idle decays since. `known: false` with `reason` when the
 * newest verified batch is not folded yet (then the state fields are null).
 */
export const AuthoritativeSummarySchema = z.object({
  known: z.boolean(),
  reason: z.string().nullable(),
  state: z.object(reputationFields).nullable(),
  /** Verified batches folded. */
  folded: nonNegInt,
  /** The agent's first and last batch epoch (any verdict); null without a batch. */
  fromEpoch: u64String.nullable(),
  toEpoch: u64String.nullable(),
});
export type AuthoritativeSummary = z.infer<typeof AuthoritativeSummarySchema>;
