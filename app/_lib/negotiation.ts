/**
 * The negotiation flight recorder of one conversation (lib/wire NegotiationView), computed on
 * the server from the stored envelopes with lib/protocol's analytics (docs/protocol.md §8).
 * Server-side because the page is rendered there: the chart and the numbers arrive with the
 * HTML, and the browser is sent only the results, not every payload. The inputs stay checkable:
 * every point links to its envelope, which the viewer can verify in the browser.
 */

import { base58, formatTokenAmount, shortHex } from '../../components/format';
import {
  advertisedRole,
  analyzeNegotiation,
  type EscrowOnChain,
  type NegotiationMessage,
  type RoleClaim,
  ratioToDecimal,
  ratioToNumber,
} from '../../lib/protocol/analytics';
import { decodeCanonical } from '../../lib/protocol/cbor';
import { conversationState } from '../../lib/protocol/conversation-state';
import { parseNegotiationPayload } from '../../lib/protocol/neg1';
import { compareByRound } from '../../lib/protocol/offer-match';
import { decodeFeedback, decodeNotarizeBid, FEEDBACK_OUTCOMES } from '../../lib/protocol/payloads';
import { MsgType } from '../../lib/protocol/types';
import type { ConversationDetail, HaggleNegotiationRow, StoredEnvelope } from '../../lib/store';
import {
  bytesToHex as hex,
  msgTypeName,
  type NegotiationView,
  type OfferPoint,
  type TimelineItem,
} from '../../lib/wire';
import { receiptReadiness } from './receipt-ready';
import type { Services } from './services';

const REASONS = [
  'no reason given',
  'capability mismatch',
  'constraint conflict',
  'trust insufficient',
  'price',
  'timeout',
  'abort',
];
export const TIER_NAMES = ['self-verifying tests', 'mechanical check', 'peer/notary review'];
const ZERO32 = '0'.repeat(64);

/** Exact amounts in the negotiation's token (raw units when its decimals are unknown). */
type Amt = (v: bigint) => string;
const ms = (e: StoredEnvelope) => Number(e.envelope.timestamp / 1000n);

/** A small CBOR array of integers (demo notary fees and verdicts are such), else undefined. */
function ints(bytes: Uint8Array): number[] | undefined {
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

function timelineItem(s: StoredEnvelope, amt: Amt): TimelineItem {
  const e = s.envelope;
  const type = msgTypeName(e.msgType);
  const recipient = hex(e.recipient);
  const base = {
    envelopeId: hex(s.id),
    type,
    sender: hex(e.sender),
    recipient: recipient === ZERO32 ? null : recipient,
    timestampMs: ms(s),
  };
  let text = '';
  let tone: TimelineItem['tone'] = 'neutral';
  switch (e.msgType) {
    case MsgType.ADVERTISE:
      text = 'advertises its capabilities';
      break;
    case MsgType.DISCOVER:
      text = 'looks for a provider';
      break;
    case MsgType.PROPOSE:
    case MsgType.COUNTER:
    case MsgType.ACCEPT:
    case MsgType.REJECT: {
      const p = parseNegotiationPayload(e.payload);
      const verb =
        e.msgType === MsgType.PROPOSE
          ? 'proposes'
          : e.msgType === MsgType.COUNTER
            ? 'counters with'
            : e.msgType === MsgType.ACCEPT
              ? 'accepts'
              : 'rejects';
      if (p.kind === 'negc')
        text = `${verb === 'proposes' ? 'opens with' : 'sends'} a sealed reservation price (NEGC commitment)`;
      else if (p.kind === 'negr') text = `reveals its reservation price ${amt(p.reveal.price)} (NEGR)`;
      else if (p.kind === 'neg1') {
        const n = p.neg1;
        if (e.msgType === MsgType.ACCEPT) {
          text = `accepts at ${amt(n.bidValue)}; verification tier ${n.verification.tier} (${TIER_NAMES[n.verification.tier] ?? '?'})`;
          tone = 'good';
        } else if (e.msgType === MsgType.REJECT) {
          text = `rejects (${REASONS[n.reason] ?? `reason ${n.reason}`}) at round ${n.round}`;
          tone = 'bad';
        } else
          text = `${verb} ${amt(n.bidValue)} in round ${n.round} of ${n.maxRounds}, tier ${n.verification.tier}, escrow decay ${n.decayBps} bps/round`;
      } else text = `${verb} (opaque payload)`;
      if (e.msgType === MsgType.REJECT) tone = 'bad';
      break;
    }
    case MsgType.DELIVER:
      text = `delivers the work (${e.payloadLen} bytes)`;
      break;
    case MsgType.NOTARIZE_BID: {
      const b = decodeNotarizeBid(e.payload);
      const fee = b.ok ? ints(b.value.terms)?.[0] : undefined;
      text = !b.ok
        ? 'notary bid (unreadable)'
        : b.value.bidType === 0
          ? 'asks the mesh for a notary (auction opens)'
          : `bids to notarise${fee !== undefined ? ` for ${amt(BigInt(fee))}` : ''}`;
      break;
    }
    case MsgType.NOTARIZE_ASSIGN:
      text = `awards the notary auction to ${shortHex(base58(recipient), 5, 4)}`;
      break;
    case MsgType.VERDICT: {
      const v = ints(e.payload);
      if (v && v.length === 2 && (v[0] === 0 || v[0] === 1)) {
        text = `verdict: ${v[0] ? 'passed' : 'failed'} (score ${v[1]})`;
        tone = v[0] ? 'good' : 'bad';
      } else text = 'issues a verdict';
      break;
    }
    case MsgType.DISPUTE:
      text = 'disputes the verdict';
      tone = 'bad';
      break;
    case MsgType.FEEDBACK: {
      const f = decodeFeedback(e.payload);
      text = f.ok
        ? `rates ${shortHex(base58(hex(f.value.targetAgent)), 5, 4)} ${f.value.score > 0 ? '+' : ''}${f.value.score} (${FEEDBACK_OUTCOMES[f.value.outcome] ?? '?'}, as ${f.value.role === 1 ? 'notary' : 'participant'}${f.value.isDispute ? ', dispute' : ''})`
        : 'feedback (unreadable)';
      if (f.ok) tone = f.value.score > 0 ? 'good' : f.value.score < 0 ? 'bad' : 'neutral';
      break;
    }
    default:
      text = `${type.toLowerCase()}`;
  }
  return { ...base, text, tone };
}

/** What the store knows beside the conversation's own messages (see {@link loadNegotiation}). */
export interface NegotiationContext {
  evidence?: RoleClaim[];
  /** The conversation's latest Haggle account, when it was mirrored on chain. */
  haggle?: HaggleNegotiationRow | null;
}

const USDC_DECIMALS = 6;

const messagesOf = (c: ConversationDetail): NegotiationMessage[] =>
  c.envelopes.map(({ envelope: e }) => ({
    sender: e.sender,
    recipient: e.recipient,
    msgType: e.msgType,
    timestamp: e.timestamp,
    payload: e.payload,
  }));

/** Builds the flight recorder of a stored conversation; `ctx` adds evidence from outside it. */
export function negotiationView(c: ConversationDetail, ctx: NegotiationContext = {}): NegotiationView {
  const offers: OfferPoint[] = [];
  const messages = messagesOf(c);
  let sealed = false;
  // One machine for every reader: the list's stored stage is the same function over the same types.
  const { outcome } = conversationState(c.envelopes.map((s) => s.envelope.msgType));
  let rejectReason: string | null = null;
  let tier: number | null = null;
  let mint: string | null = null;
  for (const s of c.envelopes) {
    const e = s.envelope;
    if (e.msgType < MsgType.PROPOSE || e.msgType > MsgType.REJECT) continue;
    const p = parseNegotiationPayload(e.payload);
    if (p.kind === 'negc') sealed = true;
    if (e.msgType === MsgType.REJECT) {
      rejectReason = p.kind === 'neg1' ? (REASONS[p.neg1.reason] ?? `reason ${p.neg1.reason}`) : 'opaque payload';
    }
    if (p.kind !== 'neg1') continue;
    const n = p.neg1;
    if (e.msgType === MsgType.ACCEPT) tier = n.verification.tier;
    mint ??= hex(n.tokenMint) === ZERO32 ? null : hex(n.tokenMint);
    offers.push({
      envelopeId: hex(s.id),
      type: msgTypeName(e.msgType),
      sender: hex(e.sender),
      round: n.round,
      price: n.bidValue.toString(),
      timestampMs: ms(s),
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
  const haggle = ctx.haggle ?? null;
  const escrow: EscrowOnChain | null = haggle
    ? { deposit: haggle.deposit, burned: haggle.decayed, decayBps: haggle.decayBps, rounds: haggle.rounds }
    : null;
  const a = analyzeNegotiation(messages, {
    evidence: ctx.evidence,
    escrow,
    haggle: haggle && {
      buyer: haggle.buyer,
      seller: haggle.seller,
      offers: haggle.transitions.filter((t) => t.kind === 'offer'),
      addressOf: base58,
    },
  });
  const first = offers.find((o) => o.type === 'PROPOSE' || o.type === 'COUNTER');
  const verdicts = c.envelopes
    .filter((s) => s.envelope.msgType === MsgType.VERDICT)
    .map((s) => ints(s.envelope.payload));
  const passed = verdicts.find((v) => v && v.length === 2);
  const verdict = passed ? (passed[0] ? 'passed' : 'failed') : verdicts.length ? 'issued' : null;
  const isParty = new Set(a.parties);
  const notaries = [
    ...new Set(
      c.envelopes.filter((s) => s.envelope.msgType === MsgType.NOTARIZE_ASSIGN).map((s) => hex(s.envelope.recipient)),
    ),
  ].filter((x) => x !== ZERO32 && !isParty.has(x));
  const bidders = [...new Set(c.notaryBids.map((b) => hex(b.bidder)))].filter(
    (x) => !isParty.has(x) && !notaries.includes(x),
  );
  const str = (v: bigint | null) => (v === null ? null : v.toString());
  // A deal mirrored on chain is priced in the Haggle program's USDC (its on-chain offers carry
  // the same amounts); otherwise NEG1 names no token this server knows: raw units.
  const token = haggle ? { mint, decimals: USDC_DECIMALS, symbol: 'USDC' } : { mint, decimals: null, symbol: null };
  const amt: Amt = (v) => formatTokenAmount(v, token);
  return {
    conversationId: hex(c.id),
    outcome,
    rejectReason,
    token,
    offers,
    parties: a.parties,
    notaries,
    bidders,
    roles: { buyer: a.roles.buyer, seller: a.roles.seller, sources: a.roles.sources, ignored: a.roles.ignored },
    sides: a.sides.map((sd) => ({
      agent: sd.agent,
      role: sd.role,
      offers: sd.offers.map((o) => o.price.toString()),
      concessions: sd.concessions?.map(String) ?? null,
      movement: sd.movement,
      decayBps: sd.decayBps,
      curve: sd.fit && {
        beta: sd.fit.beta,
        rmse: sd.fit.rmse,
        relativeRmse: sd.fit.relativeRmse,
        atBound: sd.fit.atBound,
        class: sd.class,
        a: sd.fit.a,
        b: sd.fit.b,
        t0Ms: sd.fit.t0 / 1000,
        tEndMs: sd.fit.tMax / 1000,
      },
      unknown: { ...sd.unknown },
    })),
    rounds: a.rounds,
    firstMover: a.firstMover,
    deal: a.deal && { price: a.deal.price.toString(), acceptedBy: a.deal.acceptedBy },
    sealed,
    reservations: a.reservations.map((r) => ({ agent: r.agent, status: r.status, revealed: str(r.revealed) })),
    zopa: a.zopa && {
      exists: a.zopa.exists,
      buyerReservation: a.zopa.buyerReservation.toString(),
      sellerReservation: a.zopa.sellerReservation.toString(),
      width: a.zopa.width.toString(),
    },
    nash: a.nash && {
      price: ratioToDecimal(a.nash.price),
      distance: a.nashDistance ? ratioToDecimal(a.nashDistance.distance) : null,
      relativeDistance: a.nashDistance?.relative ?? null,
    },
    rubinstein: a.rubinstein && {
      deltaFirst: ratioToNumber(a.rubinstein.deltaFirst),
      deltaSecond: ratioToNumber(a.rubinstein.deltaSecond),
      share: ratioToNumber(a.rubinstein.share),
      shareExact: `${a.rubinstein.share.num}/${a.rubinstein.share.den}`,
      limit: a.rubinstein.limit,
      price: ratioToDecimal(a.rubinstein.price),
      firstMover: a.rubinstein.firstMover,
    },
    escrowBurned: a.escrowBurned && {
      deposit: a.escrowBurned.deposit.toString(),
      burned: a.escrowBurned.burned.toString(),
      decayBps: a.escrowBurned.decayBps,
      rounds: a.escrowBurned.rounds,
    },
    surplus: a.surplus && {
      buyer: a.surplus.buyer.toString(),
      seller: a.surplus.seller.toString(),
      buyerShare: a.surplus.buyerShare,
      sellerShare: a.surplus.sellerShare,
    },
    outsideZopaBy: str(a.outsideZopaBy),
    unknown: { ...a.unknown },
    deadlineMs: first?.deadlineMs ?? null,
    decayBps: first?.decayBps ?? null,
    maxRounds: first?.maxRounds ?? null,
    tier,
    verdict,
    timeline: c.envelopes.map((e) => timelineItem(e, amt)),
  };
}

/**
 * Role evidence from beyond the conversation: each party's latest ADVERTISE with a role, and a
 * DISCOVER it sent before the negotiation's first message (a buyer looking for a provider).
 */
async function gatherEvidence(
  o: Pick<Services, 'reads'>,
  c: ConversationDetail,
  parties: readonly string[],
): Promise<RoleClaim[]> {
  const out: RoleClaim[] = [];
  const startMs = c.envelopes.length ? ms(c.envelopes[0]) : undefined;
  for (const p of parties.slice(0, 4)) {
    const id = Buffer.from(p, 'hex');
    const ads = await o.reads.recentEnvelopes({ agent: id, type: MsgType.ADVERTISE, limit: 20 });
    const ad = ads.find((r) => hex(r.envelope.sender) === p);
    const role = ad ? advertisedRole(ad.envelope.payload) : null;
    if (role) out.push({ source: 'advertise', agent: p, role });
    if (startMs !== undefined) {
      const disc = await o.reads.recentEnvelopes({ agent: id, type: MsgType.DISCOVER, limit: 5, toMs: startMs });
      if (disc.some((r) => hex(r.envelope.sender) === p)) out.push({ source: 'discover', agent: p, role: 'buyer' });
    }
  }
  return out;
}

/** The flight recorder of a conversation and whether its receipt can be downloaded; null when unknown. */
export async function loadNegotiation(
  o: Pick<Services, 'reads'>,
  id: Uint8Array,
): Promise<{ view: NegotiationView; receipt: string | null } | null> {
  const c = await o.reads.getConversation(id);
  if (!c) return null;
  const onChain = await o.reads.onChainNegotiations(id);
  const evidence = await gatherEvidence(o, c, analyzeNegotiation(messagesOf(c)).parties);
  return {
    view: negotiationView(c, { evidence, haggle: onChain[onChain.length - 1] ?? null }),
    receipt: receiptReadiness(c.envelopes.map((s) => s.envelope.msgType)),
  };
}
