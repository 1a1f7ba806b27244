/**
 * GET /api/collusion and the /collusion page: signals of possible collusion per agent
 * (lib/store/collusion/collusion.ts defines each). Ids are lowercase hex, stake amounts exact decimal
 * strings in USDC base units, times unix milliseconds. A figure that cannot be known is null
 * with a reason beside it, never a stand-in number.
 */
import { z } from 'zod';
import { hex16, hex32, nonNegInt, u64String } from './codec';
import { qp } from './params';

const agentParam = z
  .string()
  .trim()
  .regex(
    /^(?:(?:0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$/,
    'must be 64 hex characters or a base58 agent address',
  )
  .meta({ description: 'only rows about this agent: 64 hex characters or a base58 address' });

/** GET /api/collusion. */
export const CollusionQuerySchema = z.object({
  agent: agentParam.optional(),
  limit: qp.int(1, 100).default(20).meta({ description: 'rows per signal, 1..100, default 20' }),
  window: qp
    .int(100, 100_000)
    .default(5_000)
    .meta({
      description:
        'newest rows of each source read (FEEDBACK envelopes, conversations, ' +
        'NOTARIZE_ASSIGN envelopes), 100..100,000, default 5,000',
    }),
});
export type CollusionQuery = z.output<typeof CollusionQuerySchema>;

/** How much of one source the figures cover. */
export const CollusionWindowSchema = z.object({
  limit: nonNegInt,
  read: nonNegInt,
  /** Older rows exist that the figures leave out. */
  truncated: z.boolean(),
  /** The oldest row read (envelope timestamp, or a conversation's last activity), unix ms; null when none. */
  oldestMs: z.number().nullable(),
});

export const ReciprocalPairSchema = z.object({
  counterpart: hex32,
  given: nonNegInt,
  received: nonNegInt,
  /** Feedback no deal between them backs (see the glossary's "reciprocal feedback"). */
  givenWithoutDeal: nonNegInt,
  receivedWithoutDeal: nonNegInt,
  /** The latest FEEDBACK envelope each way. */
  latestGiven: hex32,
  latestReceived: hex32,
});

export const ReciprocalRowSchema = z.object({
  agent: hex32,
  counterparts: nonNegInt,
  counterpartsWithoutDeal: nonNegInt,
  given: nonNegInt,
  received: nonNegInt,
  /** Mean score (−100..100) given to and received from its reciprocal counterparts, two decimals. */
  meanGiven: z.number(),
  meanReceived: z.number(),
  /** Lower median, over every feedback of its reciprocal pairs, of the time to the nearest feedback the other way. */
  medianGapMs: z.number().nullable(),
  /** Its reciprocal counterparts, those without a deal first (at most 5). */
  pairs: z.array(ReciprocalPairSchema),
});

export const ConcentrationRowSchema = z.object({
  agent: hex32,
  deals: nonNegInt,
  counterparties: nonNegInt,
  topCounterparty: hex32,
  topDeals: nonNegInt,
  /** Share of its deals with the top counterparty; null when unknown (`unknownReason`). */
  topShare: z.number().nullable(),
  /** Herfindahl–Hirschman index of its deals over counterparties (0..1), four decimals; null when unknown. */
  hhi: z.number().nullable(),
  unknownReason: z.string().nullable(),
  /** The latest deal with the top counterparty. */
  latestDeal: hex16,
});

export const NotaryReuseRowSchema = z.object({
  agents: z.tuple([hex32, hex32]),
  /** Their conversations with a known notary. */
  assigned: nonNegInt,
  distinctNotaries: nonNegInt,
  /** The notary they had most often. */
  notary: hex32,
  sameNotary: nonNegInt,
  share: z.number(),
  /** Up to 3 conversations with that notary, latest first. */
  conversations: z.array(hex16),
});

export const DeallessRowSchema = z.object({
  agent: hex32,
  /** Feedback it received in the window. */
  received: nonNegInt,
  /** Of those, from raters that negotiated no deal the observatory has stored. */
  fromDealless: nonNegInt,
  raterCount: nonNegInt,
  /** Up to 5 of those raters. */
  raters: z.array(hex32),
  meanScore: z.number(),
  /** Up to 3 such FEEDBACK envelopes, latest first. */
  latest: z.array(hex32),
});

export const CollusionViewSchema = z.object({
  agent: hex32.nullable(),
  limit: nonNegInt,
  windows: z.object({
    feedback: CollusionWindowSchema,
    conversations: CollusionWindowSchema,
    assignments: CollusionWindowSchema,
  }),
  reciprocal: z.array(ReciprocalRowSchema),
  concentration: z.array(ConcentrationRowSchema),
  notaryReuse: z.object({
    rows: z.array(NotaryReuseRowSchema),
    /**
     * Conversations in the window whose notary (a broadcast assignment, or several notaries) or whose pair (not exactly
     * two negotiators) is unknown.
     */
    unknownNotary: nonNegInt,
    unknownPair: nonNegInt,
  }),
  dealless: z.array(DeallessRowSchema),
  /**
   * The stake of every agent listed that has one indexed: USDC base units (6 decimals), exact. An agent missing here
   * has no stake account indexed.
   */
  stakes: z.record(z.string(), z.object({ amount: u64String, status: z.string() })),
  /** Milliseconds the read took on the server. */
  tookMs: z.number(),
});
export type CollusionView = z.infer<typeof CollusionViewSchema>;
