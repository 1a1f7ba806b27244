/**
 * Database rows (lib/store/export/export.ts) → dataset rows of the envelopes, feedback, batches and
 * challenges tables (tables.ts). Payloads are decoded with lib/protocol (docs/protocol.md §4, §8).
 */

import { decodeEnvelope } from '../protocol/envelope';
import { parseNegotiationPayload } from '../protocol/neg1';
import { decodeFeedback, decodeNotarizeBid, FEEDBACK_OUTCOMES } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { payloadOf } from '../store/envelopes';
import type { Row } from './schema';
import { decodeVerdict } from './verdict';

type DbRow = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const big = (v: unknown) => BigInt(String(v));
const dateUs = (v: unknown) => BigInt((v instanceof Date ? v : new Date(String(v))).getTime()) * 1000n;

export const MSG_TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(MsgType).map(([k, v]) => [v, k]),
);
const NEG_TYPES = new Set<number>([MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT]);

/** The decoded payload columns after `payload_kind`, in table order (tables.ts). */
export const PAYLOAD_FIELDS = [
  'neg1_bid_value',
  'neg1_round',
  'neg1_token_mint',
  'neg1_service_hash',
  'neg1_deadline',
  'neg1_decay_bps',
  'neg1_max_rounds',
  'neg1_tier',
  'neg1_reason',
  'negc_commitment',
  'negr_price',
  'negr_salt',
  'feedback_target',
  'feedback_score',
  'feedback_outcome',
  'feedback_is_dispute',
  'feedback_role',
  'notarize_bid_type',
  'notarize_terms',
] as const;
const F = Object.fromEntries(PAYLOAD_FIELDS.map((n, i) => [n, i])) as Record<(typeof PAYLOAD_FIELDS)[number], number>;

/**
 * Decodes an envelope's payload into `out` (PAYLOAD_FIELDS order, null when not applicable) and
 * returns its payload_kind. Positional into a reused array, so the CSV fast path builds no
 * object per row; envelopeRow names them.
 */
export function decodePayloadInto(msgType: number, payload: Uint8Array, out: unknown[]): string {
  out.length = PAYLOAD_FIELDS.length;
  out.fill(null);
  if (msgType === MsgType.FEEDBACK) {
    const f = decodeFeedback(payload);
    if (!f.ok) return 'opaque';
    out[F.feedback_target] = f.value.targetAgent;
    out[F.feedback_score] = f.value.score;
    out[F.feedback_outcome] = f.value.outcome;
    out[F.feedback_is_dispute] = f.value.isDispute;
    out[F.feedback_role] = f.value.role;
    return 'feedback';
  }
  if (msgType === MsgType.NOTARIZE_BID) {
    const b = decodeNotarizeBid(payload);
    if (!b.ok) return 'opaque';
    out[F.notarize_bid_type] = b.value.bidType;
    out[F.notarize_terms] = b.value.terms;
    return 'notarize_bid';
  }
  if (!NEG_TYPES.has(msgType)) return 'opaque';
  const p = parseNegotiationPayload(payload);
  if (p.kind === 'neg1') {
    const n = p.neg1;
    out[F.neg1_bid_value] = n.bidValue;
    out[F.neg1_round] = n.round;
    out[F.neg1_token_mint] = n.tokenMint;
    out[F.neg1_service_hash] = n.serviceHash;
    out[F.neg1_deadline] = n.deadline;
    out[F.neg1_decay_bps] = n.decayBps;
    out[F.neg1_max_rounds] = n.maxRounds;
    out[F.neg1_tier] = n.verification.tier;
    out[F.neg1_reason] = n.reason;
    return 'neg1';
  }
  if (p.kind === 'negc') {
    out[F.negc_commitment] = p.commitment;
    return 'negc';
  }
  if (p.kind === 'negr') {
    out[F.negr_price] = p.reveal.price;
    out[F.negr_salt] = p.reveal.salt;
    return 'negr';
  }
  return 'opaque';
}

/** A stored envelope row as the store returns it, with the payload cut out of `raw`. */
export interface EnvelopeRecord {
  id: Uint8Array;
  seq: bigint;
  version: number;
  msgType: number;
  sender: Uint8Array;
  recipient: Uint8Array;
  timestamp: bigint;
  blockRef: bigint;
  nonce: bigint;
  conversationId: Uint8Array;
  payloadHash: Uint8Array;
  payloadLen: number;
  payload: Uint8Array;
  signature: Uint8Array;
  raw: Uint8Array;
  epoch: number;
  source: string;
  topic: string | null;
  receivedAtUs: bigint;
}

/** The stored row's receipt columns plus the header decoded from `raw` (exact u64 values). */
export function envelopeRecord(r: DbRow): EnvelopeRecord {
  const raw = u8(r.raw);
  const d = decodeEnvelope(raw);
  // Stored envelopes passed validation, so raw decodes; a row that does not is exported with
  // its bytes and zeroed header rather than dropped, and verify-dataset flags it.
  const e = d.ok ? d.envelope : EMPTY_ENVELOPE;
  return {
    id: u8(r.id),
    seq: big(r.seq),
    version: e.version,
    msgType: e.msgType,
    sender: e.sender,
    recipient: e.recipient,
    timestamp: e.timestamp,
    blockRef: e.blockRef,
    nonce: e.nonce,
    conversationId: e.conversationId,
    payloadHash: e.payloadHash,
    payloadLen: e.payloadLen,
    payload: e.payload,
    signature: e.signature,
    raw,
    epoch: Number(r.epoch),
    source: String(r.source),
    topic: (r.topic as string | null) ?? null,
    receivedAtUs: big(r.received_us),
  };
}

const EMPTY_ENVELOPE = {
  version: 0,
  msgType: 0,
  sender: new Uint8Array(32),
  recipient: new Uint8Array(32),
  timestamp: 0n,
  blockRef: 0n,
  nonce: 0n,
  conversationId: new Uint8Array(16),
  payloadHash: new Uint8Array(32),
  payloadLen: 0,
  payload: new Uint8Array(0),
  signature: new Uint8Array(64),
};

const vals: unknown[] = [];

/**
 * One literal with every column (a fixed object shape: spreading or adding keys one by one made rows slow dictionary
 * objects).
 */
export function envelopeRow(r: DbRow): Row {
  const e = envelopeRecord(r);
  const kind = decodePayloadInto(e.msgType, e.payload, vals);
  const v = vals;
  return {
    id: e.id,
    seq: e.seq,
    version: e.version,
    msg_type: e.msgType,
    msg_type_name: MSG_TYPE_NAMES[e.msgType] ?? `0x${e.msgType.toString(16)}`,
    sender: e.sender,
    recipient: e.recipient,
    timestamp: e.timestamp,
    block_ref: e.blockRef,
    nonce: e.nonce,
    conversation_id: e.conversationId,
    payload_hash: e.payloadHash,
    payload_len: e.payloadLen,
    payload: e.payload,
    signature: e.signature,
    raw: e.raw,
    epoch: BigInt(e.epoch),
    seen_via: e.source,
    gossip_topic: e.topic,
    first_seen: e.receivedAtUs,
    payload_kind: kind,
    neg1_bid_value: v[0],
    neg1_round: v[1],
    neg1_token_mint: v[2],
    neg1_service_hash: v[3],
    neg1_deadline: v[4],
    neg1_decay_bps: v[5],
    neg1_max_rounds: v[6],
    neg1_tier: v[7],
    neg1_reason: v[8],
    negc_commitment: v[9],
    negr_price: v[10],
    negr_salt: v[11],
    feedback_target: v[12],
    feedback_score: v[13],
    feedback_outcome: v[14],
    feedback_is_dispute: v[15],
    feedback_role: v[16],
    notarize_bid_type: v[17],
    notarize_terms: v[18],
  };
}

/**
 * The stored timestamp, or the exact u64 from the envelope bytes where the int8 column saturated (the store sends `raw`
 * then).
 */
function feedbackTime(r: DbRow): bigint {
  if (r.raw instanceof Uint8Array) {
    const d = decodeEnvelope(u8(r.raw));
    if (d.ok) return d.envelope.timestamp;
  }
  return big(r.ts);
}
export function feedbackRow(r: DbRow): Row {
  return {
    envelope_id: u8(r.envelope_id),
    conversation_id: u8(r.conversation_id),
    from_agent: u8(r.from_agent),
    target_agent: u8(r.target_agent),
    score: Number(r.score),
    outcome: FEEDBACK_OUTCOMES[Number(r.outcome)] ?? String(r.outcome),
    is_dispute: Boolean(r.is_dispute),
    role: Number(r.role) === 1 ? 'notary' : 'participant',
    timestamp: feedbackTime(r),
    epoch: big(r.epoch),
  };
}

export function batchRow(r: DbRow): Row {
  return {
    agent_id: u8(r.agent_id),
    epoch: big(r.epoch),
    batch_hash: u8(r.batch_hash),
    log_merkle_root: u8(r.root),
    slot: big(r.slot),
    signature: (r.signature as string | null) ?? null,
    status: String(r.status),
    uploaded_log_root: r.log_root ? u8(r.log_root) : null,
    updated_at: dateUs(r.updated_at),
  };
}

const optInt = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function reconciliationRow(r: DbRow): Row {
  const out: Row = {
    agent_id: u8(r.agent_id),
    epoch: big(r.epoch),
    batch_status: String(r.status),
    log_entries: Number(r.log_entries),
    seen: optInt(r.seen),
    seen_logged: optInt(r.seen_logged),
    seen_not_logged: optInt(r.seen_not_logged),
    logged_not_seen: optInt(r.logged_not_seen),
  };
  for (const t of ['broadcast', 'notary', 'reputation', 'stream']) {
    out[`seen_${t}`] = optInt(r[`seen_${t}`]);
    out[`committed_${t}`] = optInt(r[`committed_${t}`]);
  }
  out.computed_at = dateUs(r.computed_at);
  return out;
}

/**
 * A dispute row (lib/store/export/export.ts 'disputes'): the header from the DISPUTE's bytes (exact timestamp), the
 * verdict decoded.
 */
export function disputeRow(r: DbRow): Row {
  const d = decodeEnvelope(u8(r.raw));
  const vRaw = r.verdict_raw ? u8(r.verdict_raw) : null;
  const verdict = vRaw ? decodeVerdict(payloadOf(vRaw, Number(r.verdict_payload_len))) : undefined;
  return {
    dispute_id: u8(r.id),
    conversation_id: u8(r.conversation_id),
    disputed_at: d.ok ? d.envelope.timestamp : 0n,
    epoch: big(r.epoch),
    received_at: big(r.received_us),
    disputer: u8(r.sender),
    dispute_recipient: u8(r.recipient),
    proposer: r.proposer ? u8(r.proposer) : null,
    responder: r.responder ? u8(r.responder) : null,
    notary: r.notary ? u8(r.notary) : null,
    verdict_passed: verdict?.passed ?? null,
    verdict_score: verdict?.score ?? null,
    opinions: Number(r.total ?? 0),
    upheld: Number(r.upheld ?? 0),
    rejected: Number(r.rejected ?? 0),
    unclear: Number(r.unclear ?? 0),
    last_opinion_at: r.last_opinion_us === null || r.last_opinion_us === undefined ? null : big(r.last_opinion_us),
  };
}

export interface ChallengeTransition {
  status: string;
  slot: bigint;
  signature: string | null;
}

/**
 * A challenge's transitions from the store's JSON text or a file's list cell (structs whose text
 * a Parquet reader may give as bytes): slots as bigints. Null when it is neither.
 */
export function transitionsOf(v: unknown): ChallengeTransition[] | null {
  let items: unknown = v;
  if (typeof v === 'string') {
    try {
      items = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(items)) return null;
  const text = (x: unknown) =>
    x instanceof Uint8Array ? Buffer.from(x).toString('utf8') : x === null || x === undefined ? null : String(x);
  const out: ChallengeTransition[] = [];
  for (const t of items) {
    if (typeof t !== 'object' || t === null) return null;
    const o = t as Record<string, unknown>;
    const slot = text(o.slot);
    if (slot === null || !/^-?\d+$/.test(slot)) return null;
    out.push({ status: text(o.status) ?? '', slot: BigInt(slot), signature: text(o.signature) });
  }
  return out;
}

export function challengeRow(r: DbRow): Row {
  return {
    address: String(r.address),
    agent_id: u8(r.agent_id),
    epoch: big(r.epoch),
    challenger: u8(r.challenger),
    status: String(r.status),
    slot: big(r.slot),
    opened_slot: big(r.opened_slot),
    transitions: transitionsOf(r.transitions) ?? [],
    updated_at: dateUs(r.updated_at),
  };
}
