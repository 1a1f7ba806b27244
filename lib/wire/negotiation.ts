/**
 * The negotiation flight recorder's view model (`/api/conversations/{id}/negotiation` and the
 * conversation page): one conversation's NEG1 offers with their terms, lib/protocol's analytics
 * (docs/analytics.md defines every figure) and the task's timeline. Amounts are exact decimal
 * strings in the token's smallest unit (integers, except the Nash point, which may end in ".5",
 * and the Rubinstein price, rounded to 6 places of a unit); floats only for ratios and fits. A
 * figure that cannot be computed is null, and `unknown` says why.
 */
import { z } from 'zod';
import { FIGURE_KEYS, ROLE_SOURCES } from '../protocol/analytics-defs';
import { CONVERSATION_OUTCOMES } from '../protocol/conversation-state';
import { hex32, intString, nonNegInt } from './codec';

/** An exact amount that may carry a fraction of a unit (Nash, Rubinstein). */
export const decimalAmount = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal amount');

/** One NEG1 offer or answer (PROPOSE, COUNTER, ACCEPT, REJECT) with the terms it carries. */
export const OfferPointSchema = z.object({
  envelopeId: hex32,
  type: z.string(),
  sender: hex32,
  round: nonNegInt,
  /** NEG1 bid_value, exact (int128 range). */
  price: intString,
  timestampMs: z.number(),
  /** Unix ms; null = no deadline. */
  deadlineMs: z.number().nullable(),
  decayBps: nonNegInt,
  maxRounds: nonNegInt,
  /** Handshake verification tier 0..2. */
  tier: nonNegInt,
  /** NEG1 reason code (REJECT). */
  reason: nonNegInt,
});
export type OfferPoint = z.infer<typeof OfferPointSchema>;

/**
 * A side's Faratin fit on the shared clock: x(t) = a + b·((t − t0Ms)/(tEndMs − t0Ms))^(1/β), t the
 * offers' timestampMs. `class` null = withheld (the side's `unknown.class` says why).
 */
export const CurveFitViewSchema = z.object({
  beta: z.number(),
  rmse: z.number(),
  relativeRmse: z.number(),
  atBound: z.boolean(),
  class: z.enum(['boulware', 'linear', 'conceder']).nullable(),
  a: z.number(),
  b: z.number(),
  t0Ms: z.number(),
  tEndMs: z.number(),
});

export const MOVEMENTS = [
  'single offer',
  'no movement',
  'conceding',
  'moving away',
  'zig-zag',
  'monotone, direction unknown',
] as const;

export const NegotiationSideSchema = z.object({
  agent: hex32,
  /** null = roles unknown (never guessed from prices). */
  role: z.enum(['buyer', 'seller']).nullable(),
  /** The side's NEG1 offers in round order. */
  offers: z.array(intString),
  /** Per offer after the first, toward the other side (positive = conceded); null when roles are unknown. */
  concessions: z.array(intString).nullable(),
  movement: z.enum(MOVEMENTS),
  decayBps: nonNegInt.nullable(),
  curve: CurveFitViewSchema.nullable(),
  /** Why a side figure is unknown: concessions, fit, class, decay. */
  unknown: z.record(z.string(), z.string()),
});
export type NegotiationSide = z.infer<typeof NegotiationSideSchema>;

/** One step of the task: DISCOVER/ADVERTISE … FEEDBACK, with what it says in words. */
export const TimelineItemSchema = z.object({
  envelopeId: hex32,
  type: z.string(),
  sender: hex32,
  /** null = broadcast. */
  recipient: hex32.nullable(),
  timestampMs: z.number(),
  text: z.string(),
  /** `good` / `bad` colour the marker (accept, passed verdict / reject, dispute, failed verdict). */
  tone: z.enum(['neutral', 'good', 'bad']),
});
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

export const NegotiationViewSchema = z.object({
  conversationId: z.string(),
  /**
   * The state machine's outcome over the conversation's envelopes (docs/protocol.md "Conversation state"), as the list
   * shows it.
   */
  outcome: z.enum(CONVERSATION_OUTCOMES),
  /** NEG1 reason of the REJECT in words, when rejected. */
  rejectReason: z.string().nullable(),
  /**
   * The NEG1 token: mint (null when unspecified), and its decimals and symbol when known (else amounts are raw units).
   */
  token: z.object({ mint: hex32.nullable(), decimals: nonNegInt.nullable(), symbol: z.string().nullable() }),
  offers: z.array(OfferPointSchema),
  /** Negotiating parties (senders and recipients of PROPOSE … REJECT); notaries and notary bidders apart. */
  parties: z.array(hex32),
  notaries: z.array(hex32),
  bidders: z.array(hex32),
  roles: z.object({
    buyer: hex32.nullable(),
    seller: hex32.nullable(),
    sources: z.array(z.enum(ROLE_SOURCES)),
    ignored: z.array(z.string()),
  }),
  sides: z.array(NegotiationSideSchema),
  rounds: nonNegInt,
  firstMover: hex32.nullable(),
  deal: z.object({ price: intString, acceptedBy: hex32 }).nullable(),
  /** A sealed reservation (NEGC) was committed by at least one side. */
  sealed: z.boolean(),
  /** Each party's reveal against its earlier commitment; only `verified` ones feed a figure. */
  reservations: z.array(
    z.object({
      agent: hex32,
      status: z.enum(['verified', 'no commitment', 'mismatch', 'not revealed']),
      revealed: intString.nullable(),
    }),
  ),
  zopa: z
    .object({ exists: z.boolean(), buyerReservation: intString, sellerReservation: intString, width: intString })
    .nullable(),
  /** Nash point; distance from the deal (null without a deal) and relative to the ZOPA width (null when 0). */
  nash: z
    .object({ price: decimalAmount, distance: decimalAmount.nullable(), relativeDistance: z.number().nullable() })
    .nullable(),
  /**
   * Rubinstein equilibrium with each side's own decay: first mover's share (exact "num/den" too) and its price in the
   * ZOPA.
   */
  rubinstein: z
    .object({
      deltaFirst: z.number(),
      deltaSecond: z.number(),
      share: z.number(),
      shareExact: z.string(),
      limit: z.boolean(),
      price: decimalAmount,
      firstMover: hex32,
    })
    .nullable(),
  /** The escrow the chain burned by decay (Haggle account); null off chain. */
  escrowBurned: z.object({ deposit: intString, burned: intString, decayBps: nonNegInt, rounds: nonNegInt }).nullable(),
  /**
   * Surplus of each side at the deal price (exact) and its share of the ZOPA: null when the width
   * is 0 or the deal lies outside the ZOPA (a share outside [0, 1] is not a share: see outsideZopaBy).
   */
  surplus: z
    .object({
      buyer: intString,
      seller: intString,
      buyerShare: z.number().nullable(),
      sellerShare: z.number().nullable(),
    })
    .nullable(),
  /**
   * How far the agreed price lies outside the ZOPA (the verified reservations): the most either side
   * passed its own reservation by, exact; "0" inside it; null without a deal or a known ZOPA.
   */
  outsideZopaBy: intString.nullable(),
  /** Why each null figure is unknown (docs/analytics.md). */
  unknown: z.partialRecord(z.enum(FIGURE_KEYS), z.string()),
  /** Terms of the first offer (deadline unix ms, decay, max rounds) and the agreed tier. */
  deadlineMs: z.number().nullable(),
  decayBps: nonNegInt.nullable(),
  maxRounds: nonNegInt.nullable(),
  tier: nonNegInt.nullable(),
  /** Receipt verdict in words: verdict passed/failed, feedback outcomes. */
  verdict: z.string().nullable(),
  timeline: z.array(TimelineItemSchema),
});
export type NegotiationView = z.infer<typeof NegotiationViewSchema>;
