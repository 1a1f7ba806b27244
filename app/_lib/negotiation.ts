/**
 * The negotiation flight recorder of one conversation (lib/wire NegotiationView), computed on
 * the server from the stored envelopes with lib/protocol's analytics and narrative
 * (analytics.ts, negotiation-narrative.ts; docs/protocol.md §8), shaped here into the view.
 * Server-side because the page is rendered there: the chart and the numbers arrive with the
 * HTML, and the browser is sent only the results, not every payload. The inputs stay checkable:
 * every point links to its envelope, which the viewer can verify in the browser.
 */

import {
  advertisedRole,
  analyzeNegotiation,
  type EscrowOnChain,
  type NegotiationMessage,
  type RoleClaim,
  ratioToDecimal,
  ratioToNumber,
} from '../../lib/protocol/analytics';
import {
  messageSentence,
  messageMs as ms,
  type NarrativeFormat,
  negotiationFacts,
  notariesAndBidders,
} from '../../lib/protocol/negotiation-narrative';
import { MsgType } from '../../lib/protocol/types';
import type { ConversationDetail, HaggleNegotiationRow, StoredEnvelope } from '../../lib/store';
import { bytesToHex as hex, msgTypeName, type NegotiationView, type TimelineItem } from '../../lib/wire';
import { base58, formatTokenAmount, shortHex } from '../../lib/wire/format';
import { receiptReadiness } from './receipt-ready';
import type { Services } from './services';

export { TIER_NAMES } from '../../lib/protocol/negotiation-narrative';

const ZERO32 = '0'.repeat(64);

function timelineItem(s: StoredEnvelope, f: NarrativeFormat): TimelineItem {
  const e = s.envelope;
  const recipient = hex(e.recipient);
  return {
    envelopeId: hex(s.id),
    type: msgTypeName(e.msgType),
    sender: hex(e.sender),
    recipient: recipient === ZERO32 ? null : recipient,
    timestampMs: ms(s),
    ...messageSentence(e, f),
  };
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
  const facts = negotiationFacts(c.envelopes);
  const { outcome, rejectReason, sealed, tier, mint, verdict } = facts;
  const offers = facts.offers.map((o) => ({
    envelopeId: o.envelopeId,
    type: msgTypeName(o.msgType),
    sender: o.sender,
    round: o.round,
    price: o.price.toString(),
    timestampMs: o.timestampMs,
    deadlineMs: o.deadlineMs,
    decayBps: o.decayBps,
    maxRounds: o.maxRounds,
    tier: o.tier,
    reason: o.reason,
  }));
  const haggle = ctx.haggle ?? null;
  const escrow: EscrowOnChain | null = haggle
    ? { deposit: haggle.deposit, burned: haggle.decayed, decayBps: haggle.decayBps, rounds: haggle.rounds }
    : null;
  const a = analyzeNegotiation(messagesOf(c), {
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
  const { notaries, bidders } = notariesAndBidders(
    c.envelopes,
    c.notaryBids.map((b) => b.bidder),
    a.parties,
  );
  const str = (v: bigint | null) => (v === null ? null : v.toString());
  // A deal mirrored on chain is priced in the Haggle program's USDC (its on-chain offers carry
  // the same amounts); otherwise NEG1 names no token this server knows: raw units.
  const token = haggle ? { mint, decimals: USDC_DECIMALS, symbol: 'USDC' } : { mint, decimals: null, symbol: null };
  const words: NarrativeFormat = {
    amount: (v) => formatTokenAmount(v, token),
    agent: (h) => shortHex(base58(h), 5, 4),
    typeName: msgTypeName,
  };
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
    timeline: c.envelopes.map((e) => timelineItem(e, words)),
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
