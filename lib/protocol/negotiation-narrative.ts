/**
 * The negotiation flight recorder's narrative (docs/protocol.md §8), read from a conversation's
 * messages: one sentence for what each message says, and the facts of the negotiation (its NEG1
 * offers in round order, a sealed bid, the reject reason, the accepted verification tier, the
 * token, the verdict, the notaries and bidders beside the parties). The figures themselves are
 * ./analytics.ts. Amounts, agent ids and msg_type names are worded by the caller's formatter,
 * so this stays free of display code (the server's view: app/_lib/negotiation.ts).
 */
import { decodeCanonical } from './cbor';
import { type ConversationOutcome, conversationState } from './conversation-state';
import { toHex } from './hex';
import { parseNegotiationPayload } from './neg1';
import { compareByRound } from './offer-match';
import { decodeFeedback, decodeNotarizeBid, FEEDBACK_OUTCOMES } from './payloads';
import { type Envelope, MsgType } from './types';

/** NEG1 reject reasons by code. */
export const REJECT_REASONS = [
  'no reason given',
  'capability mismatch',
  'constraint conflict',
  'trust insufficient',
  'price',
  'timeout',
  'abort',
];
/** NEG1 verification tiers by number. */
export const TIER_NAMES = ['self-verifying tests', 'mechanical check', 'peer/notary review'];
const ZERO32 = '0'.repeat(64);

/** A stored message: its envelope id and the envelope fields the narrative reads. */
export interface NarratedEnvelope {
  id: Uint8Array;
  envelope: Pick<Envelope, 'sender' | 'recipient' | 'msgType' | 'timestamp' | 'payload' | 'payloadLen'>;
}

/** How the caller words what the narrative names. */
export interface NarrativeFormat {
  /** An amount in the negotiation's token (raw units when its decimals are unknown). */
  amount(units: bigint): string;
  /** An agent (64 hex) as a sentence names it. */
  agent(hex: string): string;
  /** A msg_type code's name. */
  typeName(code: number): string;
}

export type Tone = 'good' | 'bad' | 'neutral';

/** The message's time in unix milliseconds. */
export const messageMs = (e: NarratedEnvelope): number => Number(e.envelope.timestamp / 1000n);

const rejectReason = (code: number) => REJECT_REASONS[code] ?? `reason ${code}`;

/** A small CBOR array of integers (demo notary fees and verdicts are such), else undefined. */
export function smallInts(bytes: Uint8Array): number[] | undefined {
  try {
    const v = decodeCanonical(bytes);
    if (
      Array.isArray(v) &&
      v.length > 0 &&
      v.every(
        (x) =>
          (typeof x === 'bigint' && x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER)) ||
          typeof x === 'number',
      )
    )
      return v.map(Number);
  } catch {
    /* opaque */
  }
  return undefined;
}

/** The sentence of an offer or answer (PROPOSE, COUNTER, ACCEPT, REJECT) by its payload. */
function negotiationSentence(e: NarratedEnvelope['envelope'], f: NarrativeFormat): { text: string; tone: Tone } {
  const p = parseNegotiationPayload(e.payload);
  const verb =
    e.msgType === MsgType.PROPOSE
      ? 'proposes'
      : e.msgType === MsgType.COUNTER
        ? 'counters with'
        : e.msgType === MsgType.ACCEPT
          ? 'accepts'
          : 'rejects';
  let text: string;
  let tone: Tone = 'neutral';
  if (p.kind === 'negc')
    text = `${verb === 'proposes' ? 'opens with' : 'sends'} a sealed reservation price (NEGC commitment)`;
  else if (p.kind === 'negr') text = `reveals its reservation price ${f.amount(p.reveal.price)} (NEGR)`;
  else if (p.kind === 'neg1') {
    const n = p.neg1;
    if (e.msgType === MsgType.ACCEPT) {
      text =
        `accepts at ${f.amount(n.bidValue)}; verification tier ` +
        `${n.verification.tier} (${TIER_NAMES[n.verification.tier] ?? '?'})`;
      tone = 'good';
    } else if (e.msgType === MsgType.REJECT) {
      text = `rejects (${rejectReason(n.reason)}) at round ${n.round}`;
      tone = 'bad';
    } else
      text =
        `${verb} ${f.amount(n.bidValue)} in round ${n.round} of ${n.maxRounds}` +
        `, tier ${n.verification.tier}, escrow decay ${n.decayBps} bps/round`;
  } else text = `${verb} (opaque payload)`;
  if (e.msgType === MsgType.REJECT) tone = 'bad';
  return { text, tone };
}

/** What one message of a conversation says, in a sentence, and whether it went well or badly. */
export function messageSentence(e: NarratedEnvelope['envelope'], f: NarrativeFormat): { text: string; tone: Tone } {
  switch (e.msgType) {
    case MsgType.ADVERTISE:
      return { text: 'advertises its capabilities', tone: 'neutral' };
    case MsgType.DISCOVER:
      return { text: 'looks for a provider', tone: 'neutral' };
    case MsgType.PROPOSE:
    case MsgType.COUNTER:
    case MsgType.ACCEPT:
    case MsgType.REJECT:
      return negotiationSentence(e, f);
    case MsgType.DELIVER:
      return { text: `delivers the work (${e.payloadLen} bytes)`, tone: 'neutral' };
    case MsgType.NOTARIZE_BID: {
      const b = decodeNotarizeBid(e.payload);
      const fee = b.ok ? smallInts(b.value.terms)?.[0] : undefined;
      const text = !b.ok
        ? 'notary bid (unreadable)'
        : b.value.bidType === 0
          ? 'asks the mesh for a notary (auction opens)'
          : `bids to notarise${fee !== undefined ? ` for ${f.amount(BigInt(fee))}` : ''}`;
      return { text, tone: 'neutral' };
    }
    case MsgType.NOTARIZE_ASSIGN:
      return { text: `awards the notary auction to ${f.agent(toHex(e.recipient))}`, tone: 'neutral' };
    case MsgType.VERDICT: {
      const v = smallInts(e.payload);
      if (v && v.length === 2 && (v[0] === 0 || v[0] === 1))
        return { text: `verdict: ${v[0] ? 'passed' : 'failed'} (score ${v[1]})`, tone: v[0] ? 'good' : 'bad' };
      return { text: 'issues a verdict', tone: 'neutral' };
    }
    case MsgType.DISPUTE:
      return { text: 'disputes the verdict', tone: 'bad' };
    case MsgType.FEEDBACK: {
      const d = decodeFeedback(e.payload);
      if (!d.ok) return { text: 'feedback (unreadable)', tone: 'neutral' };
      const v = d.value;
      return {
        text:
          `rates ${f.agent(toHex(v.targetAgent))} ${v.score > 0 ? '+' : ''}` +
          `${v.score} (${FEEDBACK_OUTCOMES[v.outcome] ?? '?'}, as ` +
          `${v.role === 1 ? 'notary' : 'participant'}${v.isDispute ? ', dispute' : ''})`,
        tone: v.score > 0 ? 'good' : v.score < 0 ? 'bad' : 'neutral',
      };
    }
    default:
      return { text: f.typeName(e.msgType).toLowerCase(), tone: 'neutral' };
  }
}

/** One NEG1 offer or answer with its terms. */
export interface OfferFact {
  envelopeId: string;
  msgType: number;
  sender: string;
  round: number;
  price: bigint;
  timestampMs: number;
  /** The offer's deadline (unix ms), null when it names none. */
  deadlineMs: number | null;
  decayBps: number;
  maxRounds: number;
  tier: number;
  reason: number;
}

/** What a conversation's messages say about its negotiation, besides the figures of ./analytics.ts. */
export interface NegotiationFacts {
  /** Where the conversation stands (./conversation-state.ts). */
  outcome: ConversationOutcome;
  /** The NEG1 offers and answers by round, then time, then envelope id. */
  offers: OfferFact[];
  /** A party sent a sealed reservation price (NEGC). */
  sealed: boolean;
  rejectReason: string | null;
  /** The verification tier the ACCEPT named. */
  tier: number | null;
  /** The NEG1 token mint (64 hex), null when none is named (all zero). */
  mint: string | null;
  /** The first readable verdict, `issued` when none reads, null without a VERDICT. */
  verdict: 'passed' | 'failed' | 'issued' | null;
}

export function negotiationFacts(envelopes: readonly NarratedEnvelope[]): NegotiationFacts {
  const offers: OfferFact[] = [];
  let sealed = false;
  let rejected: string | null = null;
  let tier: number | null = null;
  let mint: string | null = null;
  for (const s of envelopes) {
    const e = s.envelope;
    if (e.msgType < MsgType.PROPOSE || e.msgType > MsgType.REJECT) continue;
    const p = parseNegotiationPayload(e.payload);
    if (p.kind === 'negc') sealed = true;
    if (e.msgType === MsgType.REJECT) rejected = p.kind === 'neg1' ? rejectReason(p.neg1.reason) : 'opaque payload';
    if (p.kind !== 'neg1') continue;
    const n = p.neg1;
    if (e.msgType === MsgType.ACCEPT) tier = n.verification.tier;
    mint ??= toHex(n.tokenMint) === ZERO32 ? null : toHex(n.tokenMint);
    offers.push({
      envelopeId: toHex(s.id),
      msgType: e.msgType,
      sender: toHex(e.sender),
      round: n.round,
      price: n.bidValue,
      timestampMs: messageMs(s),
      deadlineMs: n.deadline > 0n ? Number(n.deadline) * 1000 : null,
      decayBps: n.decayBps,
      maxRounds: n.maxRounds,
      tier: n.verification.tier,
      reason: n.reason,
    });
  }
  // By NEG1 round, then time, then envelope id: "first" and "last" offer mean the same everywhere
  // (the dataset's offers and final_offer, the list's last price), whichever arrived first.
  offers.sort((x, y) =>
    compareByRound(
      { round: x.round, amount: 0n, timestamp: x.timestampMs, id: x.envelopeId },
      { round: y.round, amount: 0n, timestamp: y.timestampMs, id: y.envelopeId },
    ),
  );
  const verdicts = envelopes
    .filter((s) => s.envelope.msgType === MsgType.VERDICT)
    .map((s) => smallInts(s.envelope.payload));
  const passed = verdicts.find((v) => v && v.length === 2);
  return {
    // One machine for every reader: the list's stored stage is the same function over the same types.
    outcome: conversationState(envelopes.map((s) => s.envelope.msgType)).outcome,
    offers,
    sealed,
    rejectReason: rejected,
    tier,
    mint,
    verdict: passed ? (passed[0] ? 'passed' : 'failed') : verdicts.length ? 'issued' : null,
  };
}

/**
 * The conversation's notaries (recipients of NOTARIZE_ASSIGN) and the other bidders of its notary
 * auction, as 64 hex, each once; neither list holds a negotiating party.
 */
export function notariesAndBidders(
  envelopes: readonly NarratedEnvelope[],
  bidders: readonly Uint8Array[],
  parties: readonly string[],
): { notaries: string[]; bidders: string[] } {
  const isParty = new Set(parties);
  const notaries = [
    ...new Set(
      envelopes.filter((s) => s.envelope.msgType === MsgType.NOTARIZE_ASSIGN).map((s) => toHex(s.envelope.recipient)),
    ),
  ].filter((x) => x !== ZERO32 && !isParty.has(x));
  return {
    notaries,
    bidders: [...new Set(bidders.map(toHex))].filter((x) => !isParty.has(x) && !notaries.includes(x)),
  };
}
