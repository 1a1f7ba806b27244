/**
 * GET /api/reconciliation and GET /api/reconciliation/{agent}/{epoch}: what the observer saw on
 * the mesh against what each agent committed (lib/store/reconciliation/reconciliation.ts defines each figure).
 * Ids are lowercase hex; a figure that cannot be compared (the batch is not verified) is null with
 * the reason beside it, never a stand-in number.
 */
import { z } from 'zod';
import { hex32, nonNegInt } from './codec';
import { qp } from './params';

const agentParam = z
  .string()
  .trim()
  .regex(
    /^(?:(?:0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$/,
    'must be 64 hex characters or a base58 agent address',
  );

/** GET /api/reconciliation. */
export const ReconciliationQuerySchema = z.object({
  agent: agentParam.optional().meta({ description: "only this agent's epochs: 64 hex characters or a base58 address" }),
  limit: qp
    .int(1, 500)
    .default(50)
    .meta({ description: 'agent-epochs listed, newest epoch first, 1..500, default 50' }),
});
export type ReconciliationQuery = z.output<typeof ReconciliationQuerySchema>;

/** GET /api/reconciliation/{agent}/{epoch}. */
export const ReconciliationPathSchema = z.object({
  agent: agentParam,
  epoch: z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, 'must be a non-negative integer below 2^63'),
});

export const RECON_TOPIC_KEYS = ['broadcast', 'notary', 'reputation', 'stream'] as const;

/** Envelopes the sender sent that the observer saw on one topic, and how many of them are in some committed log. */
export const TopicShareSchema = z.object({
  seen: nonNegInt,
  committed: nonNegInt,
  /** committed ÷ seen, null when nothing was seen. */
  share: z.number().nullable(),
});
const TopicsSchema = z.object({
  broadcast: TopicShareSchema,
  notary: TopicShareSchema,
  reputation: TopicShareSchema,
  stream: TopicShareSchema,
});

/** One agent-epoch as stored when its batch verdict was reached (with `agent`: also its batches still without one). */
export const ReconciliationRowSchema = z.object({
  agent: hex32,
  epoch: z.string().meta({ description: 'decimal' }),
  status: z.enum(['verified', 'mismatch', 'unverified']),
  /** Why the figures are null, when they are. */
  unknownReason: z.string().nullable(),
  logEntries: nonNegInt,
  seen: nonNegInt.nullable(),
  seenLogged: nonNegInt.nullable(),
  seenNotLogged: nonNegInt.nullable(),
  loggedNotSeen: nonNegInt.nullable(),
  topics: TopicsSchema.nullable(),
  /** When the row was computed; null for a batch without a verdict. */
  computedAt: z.string().nullable(),
});
export type ReconciliationRowView = z.infer<typeof ReconciliationRowSchema>;

export const ReconciliationTotalsSchema = z.object({
  /** Agent-epochs whose batch is verified: the only ones compared. */
  verified: nonNegInt,
  /** Agent-epochs whose batch contradicts the uploaded log: not compared. */
  mismatch: nonNegInt,
  logEntries: nonNegInt,
  seen: nonNegInt,
  seenLogged: nonNegInt,
  seenNotLogged: nonNegInt,
  loggedNotSeen: nonNegInt,
  topics: TopicsSchema,
});

export const ReconciliationViewSchema = z.object({
  agent: hex32.nullable(),
  totals: ReconciliationTotalsSchema,
  rows: z.array(ReconciliationRowSchema),
});
export type ReconciliationView = z.infer<typeof ReconciliationViewSchema>;

export const EnvelopeRefSchema = z.object({
  id: hex32,
  msgType: z.number().int().nullable(),
  via: z
    .string()
    .nullable()
    .meta({ description: 'gossip, stream or upload: how the observer first got it; null when it is not stored' }),
  topic: z.string().nullable(),
});

/** A topic's figures with the ids of the seen envelopes that are in no committed log. */
const TopicDetailSchema = TopicShareSchema.extend({ notCommittedIds: z.array(EnvelopeRefSchema) });

/** One agent-epoch read live: every figure with the envelope ids behind it (at most `listLimit` each). */
export const ReconciliationDetailSchema = z.object({
  agent: hex32,
  epoch: z.string(),
  status: z
    .enum(['verified', 'mismatch', 'unverified'])
    .nullable()
    .meta({ description: 'the batch verdict; null when no batch of this agent and epoch is indexed' }),
  unknownReason: z.string().nullable(),
  logEntries: nonNegInt,
  stored: ReconciliationRowSchema.nullable(),
  listLimit: nonNegInt,
  live: z
    .object({
      seen: nonNegInt,
      seenLogged: nonNegInt,
      seenNotLogged: nonNegInt,
      seenNotLoggedIds: z.array(EnvelopeRefSchema),
      loggedNotSeen: nonNegInt,
      loggedNotSeenIds: z.array(EnvelopeRefSchema),
      topics: z.object({
        broadcast: TopicDetailSchema,
        notary: TopicDetailSchema,
        reputation: TopicDetailSchema,
        stream: TopicDetailSchema,
      }),
    })
    .nullable(),
});
export type ReconciliationDetailView = z.infer<typeof ReconciliationDetailSchema>;
