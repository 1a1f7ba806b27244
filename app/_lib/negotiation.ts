/**
 * The negotiation flight recorder of one conversation (lib/wire NegotiationView), computed on
 * the server from the stored envelopes with lib/protocol's analytics (docs/protocol.md §8).
 * Server-side because the page is rendered there: the chart and the numbers arrive with the
 * HTML, and the browser is sent only the results, not every payload. The inputs stay checkable:
 * every point links to its envelope, which the viewer can verify in the browser.
 */
import { analyzeNegotiation, rubinsteinShare, type NegotiationMessage } from '../../lib/protocol/analytics';
import { decodeCanonical } from '../../lib/protocol/cbor';
import { MsgType } from '../../lib/protocol/types';
import { parseNegotiationPayload } from '../../lib/protocol/neg1';
import { decodeFeedback, decodeNotarizeBid } from '../../lib/protocol/payloads';
import { bytesToHex as hex, msgTypeName, type NegotiationView, type OfferPoint, type TimelineItem } from '../../lib/wire';
import type { ConversationDetail, StoredEnvelope } from '../../lib/store/types';
import { base58, shortHex, tokenAmount } from '../../components/format';
import type { Services } from './services';
import { receiptReadiness } from './receipt-ready';

const REASONS = ['no reason given', 'capability mismatch', 'constraint conflict', 'trust insufficient', 'price', 'timeout', 'abort'];
export const TIER_NAMES = ['self-verifying tests', 'mechanical check', 'peer/notary review'];
const OUTCOMES = ['negative', 'neutral', 'positive'];
const ZERO32 = '0'.repeat(64);

const amt = (n: number) => tokenAmount(String(Math.round(n)));
const ms = (e: StoredEnvelope) => Number(e.envelope.timestamp / 1000n);

/** A small CBOR array of integers (demo notary fees and verdicts are such), else undefined. */
function ints(bytes: Uint8Array): number[] | undefined {
  try {
    const v = decodeCanonical(bytes);
    if (Array.isArray(v) && v.every((x) => typeof x === 'bigint' || typeof x === 'number')) return v.map(Number);
  } catch { /* opaque */ }
  return undefined;
}

function timelineItem(s: StoredEnvelope): TimelineItem {
  const e = s.envelope;
  const type = msgTypeName(e.msgType);
  const recipient = hex(e.recipient);
  const base = { envelopeId: hex(s.id), type, sender: hex(e.sender), recipient: recipient === ZERO32 ? null : recipient, timestampMs: ms(s) };
  let text = '';
  let tone: TimelineItem['tone'] = 'neutral';
  switch (e.msgType) {
    case MsgType.ADVERTISE: text = 'advertises its capabilities'; break;
    case MsgType.DISCOVER: text = 'looks for a provider'; break;
    case MsgType.PROPOSE: case MsgType.COUNTER: case MsgType.ACCEPT: case MsgType.REJECT: {
      const p = parseNegotiationPayload(e.payload);
      const verb = e.msgType === MsgType.PROPOSE ? 'proposes' : e.msgType === MsgType.COUNTER ? 'counters with' : e.msgType === MsgType.ACCEPT ? 'accepts' : 'rejects';
      if (p.kind === 'negc') text = `${verb === 'proposes' ? 'opens with' : 'sends'} a sealed reservation price (NEGC commitment)`;
      else if (p.kind === 'negr') text = `reveals its reservation price ${amt(Number(p.reveal.price))} (NEGR)`;
      else if (p.kind === 'neg1') {
        const n = p.neg1;
        if (e.msgType === MsgType.ACCEPT) { text = `accepts at ${amt(Number(n.bidValue))}; verification tier ${n.verification.tier} (${TIER_NAMES[n.verification.tier] ?? '?'})`; tone = 'good'; }
        else if (e.msgType === MsgType.REJECT) { text = `rejects (${REASONS[n.reason] ?? `reason ${n.reason}`}) at round ${n.round}`; tone = 'bad'; }
        else text = `${verb} ${amt(Number(n.bidValue))} in round ${n.round} of ${n.maxRounds}, tier ${n.verification.tier}, escrow decay ${n.decayBps} bps/round`;
      } else text = `${verb} (opaque payload)`;
      if (e.msgType === MsgType.REJECT) tone = 'bad';
      break;
    }
    case MsgType.DELIVER: text = `delivers the work (${e.payloadLen} bytes)`; break;
    case MsgType.NOTARIZE_BID: {
      const b = decodeNotarizeBid(e.payload);
      const fee = b.ok ? ints(b.value.terms)?.[0] : undefined;
      text = !b.ok ? 'notary bid (unreadable)' : b.value.bidType === 0 ? 'asks the mesh for a notary (auction opens)' : `bids to notarise${fee !== undefined ? ` for ${amt(fee)}` : ''}`;
      break;
    }
    case MsgType.NOTARIZE_ASSIGN: text = `awards the notary auction to ${shortHex(base58(recipient), 5, 4)}`; break;
    case MsgType.VERDICT: {
      const v = ints(e.payload);
      if (v && v.length === 2 && (v[0] === 0 || v[0] === 1)) { text = `verdict: ${v[0] ? 'passed' : 'failed'} (score ${v[1]})`; tone = v[0] ? 'good' : 'bad'; }
      else text = 'issues a verdict';
      break;
    }
    case MsgType.DISPUTE: text = 'disputes the verdict'; tone = 'bad'; break;
    case MsgType.FEEDBACK: {
      const f = decodeFeedback(e.payload);
      text = f.ok
        ? `rates ${shortHex(base58(hex(f.value.targetAgent)), 5, 4)} ${f.value.score > 0 ? '+' : ''}${f.value.score} (${OUTCOMES[f.value.outcome] ?? '?'}, as ${f.value.role === 1 ? 'notary' : 'participant'}${f.value.isDispute ? ', dispute' : ''})`
        : 'feedback (unreadable)';
      if (f.ok) tone = f.value.score > 0 ? 'good' : f.value.score < 0 ? 'bad' : 'neutral';
      break;
    }
    default: text = `${type.toLowerCase()}`;
  }
  return { ...base, text, tone };
}

/** Builds the flight recorder of a stored conversation. */
export function negotiationView(c: ConversationDetail): NegotiationView {
  const offers: OfferPoint[] = [];
  const messages: NegotiationMessage[] = [];
  let sealed = false;
  let outcome: NegotiationView['outcome'] = 'open';
  let rejectReason: string | null = null;
  let tier: number | null = null;
  for (const s of c.envelopes) {
    const e = s.envelope;
    if (e.msgType < MsgType.PROPOSE || e.msgType > MsgType.REJECT) continue;
    messages.push({ sender: e.sender, msgType: e.msgType, timestamp: e.timestamp, payload: e.payload });
    const p = parseNegotiationPayload(e.payload);
    if (p.kind === 'negc') sealed = true;
    if (e.msgType === MsgType.REJECT) { outcome = 'rejected'; rejectReason = p.kind === 'neg1' ? REASONS[p.neg1.reason] ?? `reason ${p.neg1.reason}` : 'opaque payload'; }
    if (p.kind !== 'neg1') continue;
    const n = p.neg1;
    if (e.msgType === MsgType.ACCEPT) { outcome = 'agreed'; tier = n.verification.tier; }
    offers.push({
      envelopeId: hex(s.id), type: msgTypeName(e.msgType), sender: hex(e.sender), round: n.round, price: Number(n.bidValue),
      timestampMs: ms(s), deadlineMs: n.deadline > 0n ? Number(n.deadline) * 1000 : null, decayBps: n.decayBps, maxRounds: n.maxRounds,
      tier: n.verification.tier, reason: n.reason,
    });
  }
  const a = analyzeNegotiation(messages);
  const first = offers.find((o) => o.type === 'PROPOSE' || o.type === 'COUNTER');
  let rubinstein: NegotiationView['rubinstein'] = null;
  if (a.zopa?.exists && first && first.decayBps > 0) {
    const delta = 1 - first.decayBps / 10_000;
    const share = rubinsteinShare(delta, delta);
    const firstSide = a.sides.find((x) => x.agent === first.sender);
    const { buyerReservation: hi, sellerReservation: lo, width } = a.zopa;
    const price = firstSide?.role === 'buyer' ? hi - share * width : lo + share * width;
    rubinstein = { delta, share, price, firstMover: first.sender };
  }
  const surplus = a.zopa?.exists && a.deal ? { buyer: a.zopa.buyerReservation - a.deal.price, seller: a.deal.price - a.zopa.sellerReservation } : null;
  const verdicts = c.envelopes.filter((s) => s.envelope.msgType === MsgType.VERDICT).map((s) => ints(s.envelope.payload));
  const passed = verdicts.find((v) => v && v.length === 2);
  const verdict = passed ? (passed[0] ? 'passed' : 'failed') : verdicts.length ? 'issued' : null;
  return {
    conversationId: hex(c.id), outcome, rejectReason, offers,
    sides: a.sides.map((s) => ({ agent: s.agent, role: s.role, offers: s.offers, concessions: s.concessions, curve: s.curve })),
    rounds: a.rounds, deal: a.deal, sealed, zopa: a.zopa, nash: a.nash, rubinstein,
    escrowDecay: a.escrowDecay && { ...a.escrowDecay, rounds: Math.max(0, a.escrowDecay.rounds) },
    surplus,
    deadlineMs: first?.deadlineMs ?? null, decayBps: first?.decayBps ?? null, maxRounds: first?.maxRounds ?? null, tier, verdict,
    timeline: c.envelopes.map(timelineItem),
  };
}

/** The flight recorder of a conversation and whether its receipt can be downloaded; null when unknown. */
export async function loadNegotiation(o: Pick<Services, 'reads'>, id: Uint8Array): Promise<{ view: NegotiationView; receipt: string | null } | null> {
  const c = await o.reads.getConversation(id);
  if (!c) return null;
  return { view: negotiationView(c), receipt: receiptReadiness(c.envelopes.map((s) => s.envelope.msgType)) };
}
