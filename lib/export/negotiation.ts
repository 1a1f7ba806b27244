/**
 * The offers and negotiations tables: one conversation's envelopes (protocol order: timestamp,
 * nonce) → NEG1 offer rows and one negotiation row with the analytics of
 * lib/protocol/analytics.ts and its on-chain settlement (negotiation-onchain.ts)
 * (docs/protocol.md §8; docs/datasets.md "negotiations").
 */
import { analyzeNegotiation, rubinsteinShare } from '../protocol/analytics';
import { parseNegotiationPayload } from '../protocol/neg1';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { decodeCanonical } from '../protocol/cbor';
import { envelopeRecord, type EnvelopeRecord } from './rows';
import type { GossipOffers } from './negotiation-onchain';
import { hex, type Row } from './schema';

type DbRow = Record<string, unknown>;

/** Regroups a stream of envelope rows ordered by conversation into one array per conversation. */
export async function* byConversation(pages: AsyncIterable<DbRow[]>): AsyncIterable<EnvelopeRecord[]> {
  let cur: EnvelopeRecord[] = [];
  let key = '';
  for await (const page of pages) {
    for (const r of page) {
      const e = envelopeRecord(r);
      const k = hex(e.conversationId);
      if (k !== key && cur.length) { yield cur; cur = []; }
      key = k;
      cur.push(e);
    }
  }
  if (cur.length) yield cur;
}

const NEG = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);
const isOffer = (t: number) => t === MsgType.PROPOSE || t === MsgType.COUNTER;

interface Parsed { e: EnvelopeRecord; neg1: ReturnType<typeof parseNegotiationPayload> }

function negotiationMessages(envs: EnvelopeRecord[]): Parsed[] {
  return envs.filter((e) => NEG.has(e.msgType)).map((e) => ({ e, neg1: parseNegotiationPayload(e.payload) }));
}

/** relative_time of `t` within [t0, t1]. */
const rel = (t: bigint, t0: bigint, t1: bigint) => (t1 > t0 ? Number(t - t0) / Number(t1 - t0) : 0);

/** NEG1 offer rows of one conversation, in order. */
export function offerRows(envs: EnvelopeRecord[]): Row[] {
  const msgs = negotiationMessages(envs);
  const propose = msgs.find((m) => m.e.msgType === MsgType.PROPOSE);
  if (!propose) return [];
  const t0 = msgs[0].e.timestamp;
  const t1 = msgs[msgs.length - 1].e.timestamp;
  const proposer = hex(propose.e.sender);
  const out: Row[] = [];
  for (const m of msgs) {
    if (!isOffer(m.e.msgType) || m.neg1.kind !== 'neg1') continue;
    out.push({
      time: m.e.timestamp, relative_time: rel(m.e.timestamp, t0, t1), step: out.length, negotiator: m.e.sender, offer: m.neg1.neg1.bidValue,
      conversation_id: m.e.conversationId, round: m.neg1.neg1.round, side: hex(m.e.sender) === proposer ? 'proposer' : 'responder',
      recipient: m.e.recipient, msg_type_name: m.e.msgType === MsgType.PROPOSE ? 'PROPOSE' : 'COUNTER', envelope_id: m.e.id,
    });
  }
  return out;
}

const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

/**
 * The gossip columns of one conversation's negotiation row (null when it has no PROPOSE; `nowUs`
 * decides expiry), and the offers its on-chain columns are checked against
 * (negotiation-onchain.ts): the export reads the chain side for a whole page of conversations at
 * once, after their rows are built.
 */
export function negotiationRecord(envs: EnvelopeRecord[], nowUs: bigint): { row: Row; gossip: GossipOffers } | null {
  const msgs = negotiationMessages(envs);
  const propose = msgs.find((m) => m.e.msgType === MsgType.PROPOSE);
  if (!propose) return null;
  const agents = new Map<string, Uint8Array>([[hex(propose.e.sender), propose.e.sender], [hex(propose.e.recipient), propose.e.recipient]]);
  const proposer = hex(propose.e.sender);
  const offers = msgs.filter((m) => isOffer(m.e.msgType) && m.neg1.kind === 'neg1');
  const neg1Of = (m: Parsed | undefined) => (m && m.neg1.kind === 'neg1' ? m.neg1.neg1 : undefined);
  const accept = msgs.find((m) => m.e.msgType === MsgType.ACCEPT);
  const reject = msgs.find((m) => m.e.msgType === MsgType.REJECT);
  const end = accept ?? reject ?? msgs[msgs.length - 1];
  const first = neg1Of(offers[0]);
  const last = neg1Of(offers[offers.length - 1]);

  const a = analyzeNegotiation(msgs.map((m) => ({ sender: m.e.sender, msgType: m.e.msgType, timestamp: m.e.timestamp, payload: m.e.payload })));
  const side = (role: 'buyer' | 'seller') => a.sides.find((s) => s.role === role);
  const buyerHex = side('buyer')?.agent;
  const sellerHex = side('seller')?.agent;

  let outcome: string;
  if (envs.some((e) => e.msgType === MsgType.DISPUTE)) outcome = 'disputed';
  else if (accept) outcome = 'agreed';
  else if (reject) outcome = 'rejected';
  else if ((last && last.deadline > 0n && last.deadline * 1_000_000n < nowUs) || (last && offers.length >= last.maxRounds)) outcome = 'expired';
  else outcome = 'open';

  const assign = envs.find((e) => e.msgType === MsgType.NOTARIZE_ASSIGN);
  const verdict = envs.filter((e) => e.msgType === MsgType.VERDICT).map((e) => decodeVerdict(e.payload)).find((v) => v !== undefined);
  const scores = new Map<string, number[]>();
  for (const e of envs) {
    if (e.msgType !== MsgType.FEEDBACK) continue;
    const f = decodeFeedback(e.payload);
    if (f.ok) { const k = hex(f.value.targetAgent); scores.set(k, [...(scores.get(k) ?? []), f.value.score]); }
  }
  const firstBy = (who: string) => neg1Of(offers.find((m) => hex(m.e.sender) === who))?.bidValue ?? null;
  const responder = hex(propose.e.recipient);
  const decay = first?.decayBps;
  const delta = decay === undefined ? undefined : 1 - decay / 10_000;
  const zopa = a.zopa;
  const reveals = new Map<string, bigint>();
  for (const m of msgs) if (m.neg1.kind === 'negr') reveals.set(hex(m.e.sender), m.neg1.reveal.price);
  const notary = assign ? hex(assign.recipient) : undefined;
  const neg1Accept = neg1Of(msgs.find((m) => m.e.msgType === MsgType.ACCEPT && m.neg1.kind === 'neg1'));
  const gossip: GossipOffers = { offers: offers.map((m) => neg1Of(m)!.bidValue), accepted: neg1Accept?.bidValue ?? null };
  const row: Row = {
    conversation_id: propose.e.conversationId, proposer: propose.e.sender, responder: propose.e.recipient,
    buyer: buyerHex ? agents.get(buyerHex) ?? null : null, seller: sellerHex ? agents.get(sellerHex) ?? null : null,
    opening_offer: firstBy(proposer), opening_counter: firstBy(responder), final_offer: last?.bidValue ?? null,
    rounds: offers.length, outcome, agreed_price: neg1Of(accept)?.bidValue ?? null,
    started_at: msgs[0].e.timestamp, ended_at: end.e.timestamp, duration_ms: Number(end.e.timestamp - msgs[0].e.timestamp) / 1000,
    decay_bps: decay ?? null, escrow_decay_cost: a.escrowDecay?.cost ?? null,
    zopa_exists: zopa?.exists ?? null,
    buyer_reservation: buyerHex ? reveals.get(buyerHex) ?? null : null, seller_reservation: sellerHex ? reveals.get(sellerHex) ?? null : null,
    commitments_valid: zopa?.commitmentsValid ?? null,
    buyer_concession_exponent: side('buyer')?.curve?.beta ?? null, buyer_concession_class: side('buyer')?.curve?.class ?? null,
    seller_concession_exponent: side('seller')?.curve?.beta ?? null, seller_concession_class: side('seller')?.curve?.class ?? null,
    nash_price: a.nash?.price ?? null, nash_distance: a.nash?.distance ?? null, nash_relative_distance: a.nash?.relativeDistance ?? null,
    rubinstein_share: delta !== undefined && delta >= 0 && delta < 1 ? rubinsteinShare(delta, delta) : null,
    notary: assign ? assign.recipient : null, verdict_passed: verdict?.passed ?? null,
    buyer_feedback_score: buyerHex ? mean(scores.get(buyerHex) ?? []) : null,
    seller_feedback_score: sellerHex ? mean(scores.get(sellerHex) ?? []) : null,
    notary_feedback_score: notary ? mean(scores.get(notary) ?? []) : null,
  };
  return { row, gossip };
}

/**
 * The demo agents' VERDICT payload, canonical CBOR `[passed 0|1, score -100..100]` (written by
 * lib/agents/scenario.ts). Decoded here rather than imported: lib/export builds on lib/protocol
 * and lib/store only (docs/architecture.md), and a payload that is not this shape is no verdict.
 */
function decodeVerdict(bytes: Uint8Array): { passed: boolean; score: number } | undefined {
  const int = (v: unknown) => (typeof v === 'bigint' && v >= -1000n && v <= 1000n ? Number(v) : typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
  try {
    const v = decodeCanonical(bytes);
    if (!Array.isArray(v) || v.length !== 2) return undefined;
    const passed = int(v[0]);
    const score = int(v[1]);
    if ((passed === 0 || passed === 1) && score !== undefined && score >= -100 && score <= 100) return { passed: passed === 1, score };
  } catch {
    // not a demo verdict
  }
  return undefined;
}
