/**
 * The negotiation flight recorder's view model (`/api/conversations/{id}/negotiation` and the
 * conversation page): one conversation's NEG1 offers with their terms, lib/protocol's analytics
 * (docs/protocol.md §8; lib/protocol/analytics.ts) and the task's timeline. Prices here are JS
 * numbers: analytics, not consensus arithmetic (the envelopes keep the exact int128 values).
 */
import { z } from 'zod';
import { hex32, nonNegInt } from './codec';

/** One NEG1 offer or answer (PROPOSE, COUNTER, ACCEPT, REJECT) with the terms it carries. */
export const OfferPointSchema = z.object({
  envelopeId: hex32,
  type: z.string(),
  sender: hex32,
  round: nonNegInt,
  price: z.number(),
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

export const CurveFitViewSchema = z.object({ class: z.enum(['boulware', 'linear', 'conceder']), beta: z.number(), rmse: z.number() });

export const NegotiationSideSchema = z.object({
  agent: hex32,
  role: z.enum(['buyer', 'seller']),
  offers: z.array(z.number()),
  /** Per own round, toward the other side (positive = conceded). */
  concessions: z.array(z.number()),
  curve: CurveFitViewSchema.nullable(),
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
  outcome: z.enum(['agreed', 'rejected', 'open']),
  /** NEG1 reason of the REJECT in words, when rejected. */
  rejectReason: z.string().nullable(),
  offers: z.array(OfferPointSchema),
  sides: z.array(NegotiationSideSchema),
  rounds: nonNegInt,
  deal: z.object({ price: z.number(), acceptedBy: hex32 }).nullable(),
  /** A sealed reservation (NEGC) was committed by at least one side. */
  sealed: z.boolean(),
  zopa: z.object({ exists: z.boolean(), buyerReservation: z.number(), sellerReservation: z.number(), width: z.number(), commitmentsValid: z.boolean() }).nullable(),
  nash: z.object({ price: z.number(), distance: z.number(), relativeDistance: z.number() }).nullable(),
  /** Rubinstein equilibrium for the escrow decay in force: first mover's share and its price in the ZOPA. */
  rubinstein: z.object({ delta: z.number(), share: z.number(), price: z.number(), firstMover: hex32 }).nullable(),
  escrowDecay: z.object({ decayBps: nonNegInt, rounds: nonNegInt, amount: z.number(), cost: z.number() }).nullable(),
  /** Surplus of each side at the deal price, when reservations were revealed and a deal made. */
  surplus: z.object({ buyer: z.number(), seller: z.number() }).nullable(),
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
