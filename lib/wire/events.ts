/**
 * The live event stream (docs/architecture.md, live events): what the observer and the chain
 * indexer publish on the live bus, what `/api/stream` sends as JSON text frames, and what the
 * browser accepts. One zod schema per event; the TypeScript types are inferred from them.
 * JSON-only values: bytes as lowercase hex, u64 as decimal strings, times as unix ms.
 */
import { z } from 'zod';
import {
  AgentDeactivatedData,
  BatchSubmittedData,
  ChallengeResolvedData,
  ChallengeSubmittedData,
  LeasePaidData,
  StakeLockedData,
  StakeSlashedData,
} from './chain-events';
import { hex16, hex32, nonNegInt, u64String, unixMs } from './codec';
import {
  HaggleAcceptedData,
  HaggleCommittedData,
  HaggleCreatedData,
  HaggleJoinedData,
  HaggleOfferData,
  HaggleRefundedData,
  HaggleRevealedData,
  HaggleSettledData,
} from './haggle-events';
import { envelopeHeader, ReputationViewSchema } from './views';

/** Where the observer got an envelope. */
export const EnvelopeSourceSchema = z.enum(['gossip', 'stream', 'upload']);
export type EnvelopeSource = z.infer<typeof EnvelopeSourceSchema>;

/** `message`: one newly stored envelope (header fields; the payload stays on the server). */
export const MessageData = z.object({
  ...envelopeHeader,
  nonce: u64String,
  /** Envelope timestamp, unix microseconds. */
  timestamp: u64String,
  blockRef: u64String,
  payloadLen: nonNegInt,
  source: EnvelopeSourceSchema,
  topic: z.string().nullable(),
  /** When the observer received it, unix ms. */
  receivedAt: unixMs,
  /** NOTARIZE_BID only: 0 participant request, 1 notary offer. */
  bidType: nonNegInt.optional(),
});

/** `agent_joined`: an agent seen for the first time, and the envelope it was first seen in. */
export const AgentJoinedData = z.object({ agent: hex32, firstSeenBy: hex32 });

/** Fields of the events derived from one envelope. */
const envelopeRef = { envelopeId: hex32, conversationId: hex16, sender: hex32, recipient: hex32 };

/** `reputation_update`: a FEEDBACK folded into the target's gossip reputation. */
export const ReputationUpdateData = z.object({
  ...envelopeRef,
  agent: hex32,
  from: hex32,
  score: z.number().int().min(-100).max(100),
  outcome: nonNegInt.max(255),
  role: nonNegInt.max(255),
  isDispute: z.boolean(),
  reputation: ReputationViewSchema,
});

/** `notary_assigned`: NOTARIZE_ASSIGN. */
export const NotaryAssignedData = z.object({ ...envelopeRef, notary: hex32, assignedBy: hex32 });
/** `verdict_issued`: VERDICT. */
export const VerdictIssuedData = z.object({ ...envelopeRef, notary: hex32, party: hex32 });
/** `dispute_raised`: DISPUTE. */
export const DisputeRaisedData = z.object({ ...envelopeRef, disputant: hex32 });

/**
 * `drop`: envelopes rejected for one reason since the previous drop event (`count`, sent about
 * every 250 ms) and since the publishing observer started (`total`, that process only).
 */
export const DropData = z.object({ reason: z.string().min(1), count: nonNegInt.min(1), total: nonNegInt });

const ev = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ type: z.literal(type), at: unixMs, data });

/** Every live event, discriminated on `type`. */
export const LiveEventSchema = z.discriminatedUnion('type', [
  ev('message', MessageData),
  ev('agent_joined', AgentJoinedData),
  ev('reputation_update', ReputationUpdateData),
  ev('notary_assigned', NotaryAssignedData),
  ev('verdict_issued', VerdictIssuedData),
  ev('dispute_raised', DisputeRaisedData),
  ev('drop', DropData),
  ev('agent_deactivated', AgentDeactivatedData),
  ev('lease_paid', LeasePaidData),
  ev('stake_locked', StakeLockedData),
  ev('stake_slashed', StakeSlashedData),
  ev('batch_submitted', BatchSubmittedData),
  ev('challenge_submitted', ChallengeSubmittedData),
  ev('challenge_resolved', ChallengeResolvedData),
  ev('haggle_created', HaggleCreatedData),
  ev('haggle_joined', HaggleJoinedData),
  ev('haggle_offer', HaggleOfferData),
  ev('haggle_committed', HaggleCommittedData),
  ev('haggle_revealed', HaggleRevealedData),
  ev('haggle_accepted', HaggleAcceptedData),
  ev('haggle_settled', HaggleSettledData),
  ev('haggle_refunded', HaggleRefundedData),
]);

/** One live event. */
export type LiveEvent = z.infer<typeof LiveEventSchema>;
/** The `type` of a live event. */
export type LiveEventType = LiveEvent['type'];
/** The live event of one type. */
export type LiveEventOf<T extends LiveEventType> = Extract<LiveEvent, { type: T }>;
/** The `data` of one live event type. */
export type LiveEventData<T extends LiveEventType> = LiveEventOf<T>['data'];

/** Every live event type, in declaration order. */
export const LIVE_EVENT_TYPES: readonly LiveEventType[] = LiveEventSchema.options.map((o) => o.shape.type.value);

/** The chain event types the indexer publishes. */
export const CHAIN_EVENT_TYPES = [
  'agent_deactivated',
  'lease_paid',
  'stake_locked',
  'stake_slashed',
  'batch_submitted',
  'challenge_submitted',
  'challenge_resolved',
] as const;
/** A chain event type. */
export type ChainEventType = (typeof CHAIN_EVENT_TYPES)[number];
/** A live event of the chain indexer. */
export type ChainLiveEvent = LiveEventOf<ChainEventType>;

const CHAIN_SET: ReadonlySet<string> = new Set(CHAIN_EVENT_TYPES);
/** True for the indexer's events. */
export function isChainEvent(e: LiveEvent): e is ChainLiveEvent {
  return CHAIN_SET.has(e.type);
}

/** The Haggle event types the indexer publishes (negotiations, not agents: no `agentHex`). */
export const HAGGLE_EVENT_TYPES = [
  'haggle_created',
  'haggle_joined',
  'haggle_offer',
  'haggle_committed',
  'haggle_revealed',
  'haggle_accepted',
  'haggle_settled',
  'haggle_refunded',
] as const;
/** A Haggle event type. */
export type HaggleEventType = (typeof HAGGLE_EVENT_TYPES)[number];
/** A live Haggle event of the indexer. */
export type HaggleLiveEvent = LiveEventOf<HaggleEventType>;

const HAGGLE_SET: ReadonlySet<string> = new Set(HAGGLE_EVENT_TYPES);
/** True for the indexer's Haggle events. */
export function isHaggleEvent(e: LiveEvent): e is HaggleLiveEvent {
  return HAGGLE_SET.has(e.type);
}

/* ---------- /api/stream control frames ---------- */

/** First frame on every `/api/stream` connection. */
export const HelloFrameSchema = z.object({ type: z.literal('hello'), at: unixMs, data: z.object({}) });
/** Sent to a client that fell behind, before its next event: `dropped` events never reached it. */
export const LaggedFrameSchema = z.object({
  type: z.literal('lagged'),
  at: unixMs,
  data: z.object({ dropped: nonNegInt }),
});
/** A `hello` frame. */
export type HelloFrame = z.infer<typeof HelloFrameSchema>;
/** A `lagged` frame. */
export type LaggedFrame = z.infer<typeof LaggedFrameSchema>;

/** Any frame of `/api/stream`. */
export const StreamFrameSchema = z.discriminatedUnion('type', [
  HelloFrameSchema,
  LaggedFrameSchema,
  ...LiveEventSchema.options,
]);
/** Any frame of `/api/stream`. */
export type StreamFrame = z.infer<typeof StreamFrameSchema>;

/** Outcome of {@link parseStreamFrame}. */
export type ParsedFrame = { ok: true; frame: StreamFrame } | { ok: false; error: string };

/**
 * Parses one `/api/stream` text frame. Never throws: bad JSON or a frame that does not match
 * its schema comes back as `{ ok: false, error }` naming the first problem.
 */
export function parseStreamFrame(text: unknown): ParsedFrame {
  if (typeof text !== 'string') return { ok: false, error: 'frame is not text' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'frame is not JSON' };
  }
  const r = StreamFrameSchema.safeParse(raw);
  if (r.success) return { ok: true, frame: r.data };
  const issue = r.error.issues[0];
  return { ok: false, error: `${issue.path.join('.') || 'frame'}: ${issue.message}` };
}
