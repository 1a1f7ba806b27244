/**
 * The offers and negotiations tables: one conversation's envelopes (protocol order: timestamp,
 * nonce) → NEG1 offer rows and one negotiation row with the analytics of
 * lib/protocol/analytics.ts and its on-chain settlement (negotiation-onchain.ts)
 * (docs/protocol.md §8; docs/datasets.md "negotiations").
 */
import bs58 from 'bs58';
import { analyzeNegotiation, ratioToDecimal, ratioToNumber } from '../protocol/analytics';
import { conversationState } from '../protocol/conversation-state';
import { toHex } from '../protocol/hex';
import { parseNegotiationPayload } from '../protocol/neg1';
import { type GossipOffer, sortByRound } from '../protocol/offer-match';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import type { HaggleNegotiationRow } from '../store';
import type { GossipOffers } from './negotiation-onchain';
import { type EnvelopeRecord, envelopeRecord } from './rows';
import type { Row } from './schema';
import { decodeVerdict } from './verdict';

type DbRow = Record<string, unknown>;

/** Regroups a stream of envelope rows ordered by conversation into one array per conversation. */
export async function* byConversation(pages: AsyncIterable<DbRow[]>): AsyncIterable<EnvelopeRecord[]> {
  let cur: EnvelopeRecord[] = [];
  let key = '';
  for await (const page of pages) {
    for (const r of page) {
      const e = envelopeRecord(r);
      const k = toHex(e.conversationId);
      if (k !== key && cur.length) {
        yield cur;
        cur = [];
      }
      key = k;
      cur.push(e);
    }
  }
  if (cur.length) yield cur;
}

const NEG = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);
const isOffer = (t: number) => t === MsgType.PROPOSE || t === MsgType.COUNTER;

interface Parsed {
  e: EnvelopeRecord;
  neg1: ReturnType<typeof parseNegotiationPayload>;
}

function negotiationMessages(envs: EnvelopeRecord[]): Parsed[] {
  return envs.filter((e) => NEG.has(e.msgType)).map((e) => ({ e, neg1: parseNegotiationPayload(e.payload) }));
}

/** A NEG1 offer's place in the negotiation's order (offer-match.ts): round, then time, then id. */
const roundKey = (m: Parsed): GossipOffer => ({
  round: m.neg1.kind === 'neg1' ? m.neg1.neg1.round : 0,
  amount: 0n,
  timestamp: m.e.timestamp,
  id: toHex(m.e.id),
});

/** NegMAS's response names (negmas ResponseType) for what the other side did after an offer. */
const RESPONSE: Record<number, string> = {
  [MsgType.COUNTER]: 'REJECT_OFFER',
  [MsgType.PROPOSE]: 'REJECT_OFFER',
  [MsgType.ACCEPT]: 'ACCEPT_OFFER',
  [MsgType.REJECT]: 'END_NEGOTIATION',
};

/**
 * NegMAS's relative time: max(elapsed / (deadline − start), (round + 1) / (max_rounds + 1)) over
 * the parts the opening NEG1 states (a deadline of 0 or max_rounds of 0 states nothing), clamped
 * to [0, 1]; null when it states neither.
 */
function relativeTime(
  tUs: bigint,
  t0Us: bigint,
  round: number | null,
  deadlineS: bigint,
  maxRounds: number,
): number | null {
  const parts: number[] = [];
  const endUs = deadlineS * 1_000_000n;
  if (deadlineS > 0n && endUs > t0Us) parts.push(Number(tUs - t0Us) / Number(endUs - t0Us));
  if (maxRounds > 0 && round !== null) parts.push((round + 1) / (maxRounds + 1));
  return parts.length ? Math.min(1, Math.max(0, ...parts)) : null;
}

/**
 * The offers table of one conversation, NegMAS negotiation-trace shaped: one row per NEG1 offer
 * in round order (`step` counts offers by NEG1 round, then time, then envelope id, so two offers
 * stamped in the same millisecond keep their rounds' order whichever the store returned first),
 * then one row for the final action (the ACCEPT, else the REJECT). `time` is seconds from the
 * negotiation's first message; `response` what the other side answered (the next negotiation
 * message of the other party); `state` continuing, or agreement / ended on the final action.
 */
export function offerRows(envs: EnvelopeRecord[]): Row[] {
  const msgs = negotiationMessages(envs);
  const propose = msgs.find((m) => m.e.msgType === MsgType.PROPOSE);
  if (!propose) return [];
  const t0 = msgs[0].e.timestamp;
  const proposer = toHex(propose.e.sender);
  const offers = sortByRound(
    msgs.filter((x) => x.neg1.kind === 'neg1' && isOffer(x.e.msgType)),
    roundKey,
  );
  const opening = offers.find((m) => m.neg1.kind === 'neg1')?.neg1;
  const terms = opening && opening.kind === 'neg1' ? opening.neg1 : null;
  const final = msgs.find((m) => m.e.msgType === MsgType.ACCEPT) ?? msgs.find((m) => m.e.msgType === MsgType.REJECT);
  const out: Row[] = [];
  const row = (m: Parsed, name: string, response: string | null, state: string): Row => {
    const n = m.neg1.kind === 'neg1' ? m.neg1.neg1 : null;
    return {
      time: Number(m.e.timestamp - t0) / 1e6,
      relative_time: relativeTime(m.e.timestamp, t0, n?.round ?? null, terms?.deadline ?? 0n, terms?.maxRounds ?? 0),
      step: out.length,
      negotiator: m.e.sender,
      offer: n?.bidValue ?? null,
      response,
      state,
      timestamp: m.e.timestamp,
      conversation_id: m.e.conversationId,
      round: n?.round ?? null,
      side: toHex(m.e.sender) === proposer ? 'proposer' : 'responder',
      recipient: m.e.recipient,
      msg_type_name: name,
      envelope_id: m.e.id,
    };
  };
  for (const m of offers) {
    if (m.neg1.kind !== 'neg1') continue;
    // The other party's next negotiation message after this offer answers it.
    const me = toHex(m.e.sender);
    const at = msgs.indexOf(m);
    const next = msgs.slice(at + 1).find((x) => toHex(x.e.sender) !== me);
    out.push(
      row(
        m,
        m.e.msgType === MsgType.PROPOSE ? 'PROPOSE' : 'COUNTER',
        next ? RESPONSE[next.e.msgType] : null,
        'continuing',
      ),
    );
  }
  if (final)
    out.push(
      row(
        final,
        final.e.msgType === MsgType.ACCEPT ? 'ACCEPT' : 'REJECT',
        null,
        final.e.msgType === MsgType.ACCEPT ? 'agreement' : 'ended',
      ),
    );
  return out;
}

/**
 * A negotiation's outcome: the conversation state machine's (lib/protocol/conversation-state.ts),
 * as the list and the API say it; where the gossip decided nothing (open, or deal steps without an
 * ACCEPT) the chain's terminal state of its Haggle account `h`, else expired once the last offer's
 * deadline has passed or its round used the last of max_rounds. `offers` in round order.
 */
function outcomeOf(
  envs: readonly EnvelopeRecord[],
  offers: readonly Parsed[],
  nowUs: bigint,
  h: HaggleNegotiationRow | undefined,
): string {
  const tail = offers[offers.length - 1]?.neg1;
  const last = tail && tail.kind === 'neg1' ? tail.neg1 : undefined;
  const lastRound = offers.reduce((m, o) => Math.max(m, o.neg1.kind === 'neg1' ? o.neg1.neg1.round : -1), -1);
  const gossipOutcome = conversationState(envs.map((e) => e.msgType)).outcome;
  if (gossipOutcome !== 'open' && gossipOutcome !== 'no_deal') return gossipOutcome;
  if (h && CHAIN_OUTCOME[h.status]) return CHAIN_OUTCOME[h.status];
  if (gossipOutcome === 'no_deal') return 'no_deal';
  if (last && last.deadline > 0n && last.deadline * 1_000_000n < nowUs) return 'expired';
  if (last && lastRound + 1 >= last.maxRounds) return 'expired';
  return 'open';
}

/** The outcome of one conversation's negotiation (the negotiations table's `outcome`), or null without a PROPOSE. */
export function negotiationOutcome(
  envs: EnvelopeRecord[],
  nowUs: bigint,
  chain: readonly HaggleNegotiationRow[] = [],
): string | null {
  const msgs = negotiationMessages(envs);
  if (!msgs.some((m) => m.e.msgType === MsgType.PROPOSE)) return null;
  const offers = sortByRound(
    msgs.filter((m) => isOffer(m.e.msgType) && m.neg1.kind === 'neg1'),
    roundKey,
  );
  return outcomeOf(envs, offers, nowUs, chain[chain.length - 1]);
}

const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);

/** Gossip says nothing final: the chain's state of its Haggle account decides (docs/datasets.md "outcome"). */
const CHAIN_OUTCOME: Record<string, string> = {
  settled: 'agreed',
  accepted: 'agreed',
  rejected: 'rejected',
  expired: 'expired',
};

/**
 * The gossip and analytics columns of one conversation's negotiation row (null when it has no
 * PROPOSE), and the offers its on-chain columns are checked against (negotiation-onchain.ts).
 * `nowUs` decides expiry by deadline; `chain` (the conversation's Haggle negotiations, oldest
 * first) is role evidence, the escrow burned, and the outcome when the gossip has none.
 * `chainRoles` are roles the Haggle account stated, given as such when its on-chain offers are
 * not at hand (a verifier re-deriving a released row: rederive.ts).
 */
export function negotiationRecord(
  envs: EnvelopeRecord[],
  nowUs: bigint,
  chain: readonly HaggleNegotiationRow[] = [],
  chainRoles?: { buyer: string | null; seller: string | null },
): { row: Row; gossip: GossipOffers } | null {
  const msgs = negotiationMessages(envs);
  const propose = msgs.find((m) => m.e.msgType === MsgType.PROPOSE);
  if (!propose) return null;
  const agents = new Map<string, Uint8Array>([
    [toHex(propose.e.sender), propose.e.sender],
    [toHex(propose.e.recipient), propose.e.recipient],
  ]);
  const proposer = toHex(propose.e.sender);
  // In round order (then time, then id), as the offers table: the opening and final offers are the
  // first and last by round, never by arrival.
  const offers = sortByRound(
    msgs.filter((m) => isOffer(m.e.msgType) && m.neg1.kind === 'neg1'),
    roundKey,
  );
  const neg1Of = (m: Parsed | undefined) => (m && m.neg1.kind === 'neg1' ? m.neg1.neg1 : undefined);
  const accept = msgs.find((m) => m.e.msgType === MsgType.ACCEPT);
  const reject = msgs.find((m) => m.e.msgType === MsgType.REJECT);
  const end = accept ?? reject ?? msgs[msgs.length - 1];
  const first = neg1Of(offers[0]);
  const last = neg1Of(offers[offers.length - 1]);

  const h = chain[chain.length - 1];
  const a = analyzeNegotiation(
    envs.map((e) => ({
      sender: e.sender,
      recipient: e.recipient,
      msgType: e.msgType,
      timestamp: e.timestamp,
      payload: e.payload,
    })),
    {
      haggle: h
        ? {
            buyer: h.buyer,
            seller: h.seller,
            offers: h.transitions.filter((t) => t.kind === 'offer'),
            addressOf: (x) => bs58.encode(Buffer.from(x, 'hex')),
          }
        : null,
      escrow: h ? { deposit: h.deposit, burned: h.decayed, decayBps: h.decayBps, rounds: h.rounds } : null,
      evidence: chainRoles
        ? [
            ...(chainRoles.buyer
              ? [{ source: 'haggle' as const, agent: chainRoles.buyer, role: 'buyer' as const }]
              : []),
            ...(chainRoles.seller
              ? [{ source: 'haggle' as const, agent: chainRoles.seller, role: 'seller' as const }]
              : []),
          ]
        : undefined,
    },
  );
  const side = (role: 'buyer' | 'seller') => a.sides.find((s) => s.role === role);
  const buyerHex = a.roles.buyer ?? undefined;
  const sellerHex = a.roles.seller ?? undefined;
  for (const p of a.parties) if (!agents.has(p)) agents.set(p, Buffer.from(p, 'hex'));

  const outcome = outcomeOf(envs, offers, nowUs, h);

  const assign = envs.find((e) => e.msgType === MsgType.NOTARIZE_ASSIGN);
  const verdict = envs
    .filter((e) => e.msgType === MsgType.VERDICT)
    .map((e) => decodeVerdict(e.payload))
    .find((v) => v !== undefined);
  const scores = new Map<string, number[]>();
  for (const e of envs) {
    if (e.msgType !== MsgType.FEEDBACK) continue;
    const f = decodeFeedback(e.payload);
    if (f.ok) {
      const k = toHex(f.value.targetAgent);
      scores.set(k, [...(scores.get(k) ?? []), f.value.score]);
    }
  }
  const firstBy = (who: string) => neg1Of(offers.find((m) => toHex(m.e.sender) === who))?.bidValue ?? null;
  const responder = toHex(propose.e.recipient);
  const decay = first?.decayBps;
  const zopa = a.zopa;
  const reservation = (agent: string | undefined) => a.reservations.find((r) => r.agent === agent);
  const verified = (agent: string | undefined) =>
    reservation(agent)?.status === 'verified' ? reservation(agent)!.revealed : null;
  const reveals = a.reservations.filter((r) => r.status !== 'not revealed');
  const isParty = new Set(a.parties);
  const bidders = [
    ...new Set(envs.filter((e) => e.msgType === MsgType.NOTARIZE_BID).map((e) => toHex(e.sender))),
  ].filter((x) => !isParty.has(x) && x !== (assign ? toHex(assign.recipient) : ''));
  const fit = (role: 'buyer' | 'seller') => side(role)?.fit ?? null;
  // A β at the search bound is the bound, not an estimate: no exponent (its fit error stays).
  const beta = (role: 'buyer' | 'seller') => {
    const f = fit(role);
    return f && !f.atBound ? f.beta : null;
  };
  const notary = assign ? toHex(assign.recipient) : undefined;
  const neg1Accept = neg1Of(msgs.find((m) => m.e.msgType === MsgType.ACCEPT && m.neg1.kind === 'neg1'));
  const gossip: GossipOffers = {
    offers: offers.map((m) => ({
      ...roundKey(m),
      amount: neg1Of(m)!.bidValue,
      opening: m.e.msgType === MsgType.PROPOSE,
    })),
    accepted: neg1Accept?.bidValue ?? null,
    sealed: propose.neg1.kind === 'negc',
  };
  const row: Row = {
    conversation_id: propose.e.conversationId,
    proposer: propose.e.sender,
    responder: propose.e.recipient,
    buyer: buyerHex ? (agents.get(buyerHex) ?? null) : null,
    seller: sellerHex ? (agents.get(sellerHex) ?? null) : null,
    opening_offer: firstBy(proposer),
    opening_counter: firstBy(responder),
    final_offer: last?.bidValue ?? null,
    rounds: offers.length,
    outcome,
    agreed_price: neg1Of(accept)?.bidValue ?? null,
    started_at: msgs[0].e.timestamp,
    ended_at: end.e.timestamp,
    duration_ms: Number(end.e.timestamp - msgs[0].e.timestamp) / 1000,
    decay_bps: decay ?? null,
    max_rounds: first?.maxRounds ?? null,
    deadline: first?.deadline ?? null,
    service_hash: first?.serviceHash ?? null,
    token_mint: first?.tokenMint ?? null,
    escrow_decay_cost: a.escrowBurned?.burned ?? null,
    zopa_exists: zopa?.exists ?? null,
    buyer_reservation: verified(buyerHex),
    seller_reservation: verified(sellerHex),
    buyer_reservation_status: reservation(buyerHex)?.status ?? null,
    seller_reservation_status: reservation(sellerHex)?.status ?? null,
    commitments_valid: reveals.length ? reveals.every((r) => r.status === 'verified') : null,
    buyer_concession_exponent: beta('buyer'),
    buyer_concession_class: side('buyer')?.class ?? null,
    buyer_fit_error: fit('buyer')?.relativeRmse ?? null,
    buyer_movement: side('buyer')?.movement ?? null,
    seller_concession_exponent: beta('seller'),
    seller_concession_class: side('seller')?.class ?? null,
    seller_fit_error: fit('seller')?.relativeRmse ?? null,
    seller_movement: side('seller')?.movement ?? null,
    nash_price: a.nash ? ratioToDecimal(a.nash.price) : null,
    nash_distance: a.nashDistance ? ratioToDecimal(a.nashDistance.distance) : null,
    nash_relative_distance: a.nashDistance?.relative ?? null,
    buyer_surplus: a.surplus?.buyer ?? null,
    seller_surplus: a.surplus?.seller ?? null,
    outside_zopa_by: a.outsideZopaBy,
    rubinstein_share: a.rubinstein ? ratioToNumber(a.rubinstein.share) : null,
    rubinstein_price: a.rubinstein ? ratioToDecimal(a.rubinstein.price) : null,
    roles_source: a.roles.sources.length ? a.roles.sources.join(',') : null,
    notary_bidders: bidders.length ? bidders : null,
    notary: assign ? assign.recipient : null,
    verdict_passed: verdict?.passed ?? null,
    buyer_feedback_score: buyerHex ? mean(scores.get(buyerHex) ?? []) : null,
    seller_feedback_score: sellerHex ? mean(scores.get(sellerHex) ?? []) : null,
    notary_feedback_score: notary ? mean(scores.get(notary) ?? []) : null,
  };
  return { row, gossip };
}
