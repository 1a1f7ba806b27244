/**
 * The dispute desk as GET /api/disputes, /api/disputes/{id}, the /disputes pages and the opinion
 * upload read and write it (lib/store/disputes/disputes.ts; the signed text in lib/wire/disputes.ts). A
 * dispute's evidence is its conversation as the conversation page shows it (the same loaders),
 * plus the notary, the verdict, the receipt's readiness and the on-chain Haggle settlement.
 */
import 'server-only';
import bs58 from 'bs58';
import { decodeVerdict } from '../../lib/export/verdict';
import { fromHex, toHex } from '../../lib/protocol/hex';
import { MsgType } from '../../lib/protocol/types';
import type { DisputeRow, OpinionRow } from '../../lib/store/disputes';
import { payloadOf } from '../../lib/store/envelopes';
import { checkSignedReview } from '../../lib/verify/dispute-review';
import {
  type DisputeDetailView,
  type DisputeListView,
  type DisputeOpinionRequest,
  type DisputeOpinionResult,
  type DisputeOpinionView,
  type DisputeRowView,
  type DisputesQuery,
  REVIEW_MAX_AGE_MS,
} from '../../lib/wire/disputes';
import { loadConversation } from './data';
import { loadOnChainNegotiations } from './haggle';
import { HttpError } from './http';
import { loadNegotiation } from './negotiation';
import type { Services } from './services';

export function disputeRowView(d: DisputeRow): DisputeRowView {
  return {
    id: toHex(d.id),
    conversationId: toHex(d.conversationId),
    disputer: toHex(d.sender),
    recipient: toHex(d.recipient),
    timestampMs: Number(d.timestampUs / 1000n),
    receivedAtMs: d.receivedAt.getTime(),
    payloadLen: d.payloadLen,
    status: d.opinions.total > 0 ? 'reviewed' : 'open',
    opinions: d.opinions,
  };
}

/** Why an opinion does not count, in the words the desk shows. */
export const NOT_COUNTED = 'not counted: reviewer not named by this deployment';

/** The reviewers this deployment names (DISPUTE_REVIEWERS), base58; empty when none. */
export const namedReviewers = (o: Services): ReadonlySet<string> => new Set(o.disputeReviewers ?? []);

export function opinionView(o: OpinionRow): DisputeOpinionView {
  return {
    reviewer: bs58.encode(o.reviewer),
    opinion: o.opinion,
    note: o.note,
    message: o.message,
    signature: toHex(o.signature),
    signedAt: o.signedAt.toISOString(),
    receivedAt: o.receivedAt.toISOString(),
    counted: o.counted,
    ...(o.counted ? {} : { notCounted: NOT_COUNTED }),
  };
}

/** `<timestamp µs>.<id hex>`: the keyset cursor of GET /api/disputes. */
const cursorText = (c: { timestampUs: bigint; id: Uint8Array }) => `${c.timestampUs}.${toHex(c.id)}`;
function parseCursor(s: string): { timestampUs: bigint; id: Uint8Array } {
  const [ts, id] = s.split('.');
  const timestampUs = BigInt(ts);
  if (timestampUs > (1n << 63n) - 1n)
    throw new HttpError(400, 'query parameter "before": the timestamp is past the largest stored one');
  return { timestampUs, id: fromHex(id) };
}

export async function loadDisputes(o: Services, p: DisputesQuery): Promise<DisputeListView> {
  const store = o.reads;
  const [page, counts] = await Promise.all([
    store.listDisputes({ status: p.status, limit: p.limit, before: p.before ? parseCursor(p.before) : undefined }),
    store.disputeCounts(),
  ]);
  return {
    counts,
    reviewersNamed: namedReviewers(o).size,
    disputes: page.disputes.map(disputeRowView),
    next: page.next ? cursorText(page.next) : null,
  };
}

/** One dispute with its evidence and opinions; null when `idHex` is not a stored DISPUTE. */
export async function loadDispute(o: Services, idHex: string): Promise<DisputeDetailView | null> {
  const store = o.reads;
  const d = await store.getDispute(fromHex(idHex));
  if (!d) return null;
  const convHex = toHex(d.conversationId);
  // An all-zero conversation id is the protocol's "no conversation": nothing to gather.
  const hasConversation = /[^0]/.test(convHex);
  const [conversation, nego, opinions, payloads] = await Promise.all([
    hasConversation ? loadConversation(o, convHex) : null,
    hasConversation ? loadNegotiation(o, d.conversationId) : null,
    store.disputeOpinions(d.id),
    hasConversation ? store.conversationPayloads(d.conversationId, [MsgType.NOTARIZE_ASSIGN, MsgType.VERDICT]) : [],
  ]);
  const onChain = conversation ? await loadOnChainNegotiations(o, convHex, conversation.pricePath) : [];
  const assign = payloads.find((e) => e.msgType === MsgType.NOTARIZE_ASSIGN);
  let verdict: DisputeDetailView['verdict'] = null;
  for (const e of payloads) {
    if (e.msgType !== MsgType.VERDICT) continue;
    const v = decodeVerdict(payloadOf(e.raw, e.payloadLen));
    if (v) {
      verdict = { envelopeId: toHex(e.id), passed: v.passed, score: v.score };
      break;
    }
  }
  const verdictSender = payloads.find((e) => e.msgType === MsgType.VERDICT)?.sender;
  const missing = !conversation ? 'the dispute names no stored conversation' : (nego?.receipt ?? null);
  return {
    dispute: disputeRowView(d),
    conversation,
    parties: nego?.view.parties.length ? nego.view.parties : (conversation?.participants ?? []),
    notary: assign ? toHex(assign.recipient) : verdictSender ? toHex(verdictSender) : null,
    verdict,
    receipt: { url: missing ? null : `/api/conversations/${convHex}/receipt`, missing },
    onChain,
    opinions: opinions.map(opinionView),
    reviewersNamed: namedReviewers(o).size,
  };
}

/** A used review signature is remembered this long past its `at:` (its window, plus a margin for clocks). */
const USED_REVIEW_KEEP_MS = REVIEW_MAX_AGE_MS + 10 * 60_000;

/**
 * POST /api/disputes/{id}/opinions, its body already checked by its schema (app/_lib/body.ts):
 * the signed review checked by lib/verify/dispute-review.ts (4xx with its sentence when refused),
 * then stored as the reviewer's current opinion, each signature once.
 */
export async function recordOpinion(
  o: Services,
  idHex: string,
  body: DisputeOpinionRequest,
  now = Date.now(),
): Promise<DisputeOpinionResult> {
  const checked = checkSignedReview(idHex, body, now);
  if (!checked.ok) throw new HttpError(checked.status, checked.error);
  const { reviewer, signature, review, message, at } = checked;
  const store = o.reads;
  const dispute = await store.getDispute(fromHex(idHex));
  if (!dispute) throw new HttpError(404, `no DISPUTE envelope ${idHex} is stored`);
  // A signed review is accepted once, in any spelling and across restarts (its bytes are kept).
  if (!(await store.usedSignatures.claim(signature, 'dispute-opinion', new Date(at + USED_REVIEW_KEEP_MS)))) {
    throw new HttpError(409, 'this signed review was recorded already: sign a fresh one to send it again');
  }
  // Kept either way; only a reviewer the deployment names moves the dispute's status and counts.
  const counted = namedReviewers(o).has(bs58.encode(reviewer));
  const row = {
    disputeId: dispute.id,
    reviewer,
    opinion: review.opinion,
    note: review.note,
    message,
    signature,
    signedAt: new Date(at),
    receivedAt: new Date(now),
    counted,
  };
  const stored = await store.saveDisputeOpinion(row);
  if (stored === 'older')
    throw new HttpError(
      409,
      'this reviewer already has a newer opinion on this dispute (signed ' +
        'at the same time or later): sign a fresh review to change it',
    );
  return { stored, opinion: opinionView(row) };
}
