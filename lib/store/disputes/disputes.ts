/**
 * The dispute desk's reads and writes (docs/app.md "Dispute desk"). A dispute is a stored DISPUTE
 * envelope; nothing here judges it. Reviewers' opinions live in `dispute_opinion`, one current row
 * per dispute and reviewer: a newer signed message replaces the reviewer's earlier one, which is
 * not kept (the desk shows where each reviewer stands now; the row keeps the signed text, so it
 * can be checked again by anyone). The signature is checked by the caller before it gets here.
 *
 * Listing is newest first by (envelope timestamp, id) through envelope (msg_type, timestamp), with
 * keyset paging, so a page costs about `limit` index entries whatever the envelope table holds;
 * the open/reviewed filter probes dispute_opinion's primary key per candidate. Only opinions of
 * reviewers the deployment names (`counted`) make a dispute reviewed or count; the others are
 * kept and listed with their flag.
 */
import { MsgType } from '../../protocol/types';
import type { Queryable } from '../engine/db';

export type OpinionKind = 'upheld' | 'rejected' | 'unclear';

/**
 * Counted opinions (reviewers the deployment names) by kind; `uncounted` is the opinions of
 * everyone else, kept and shown but moving neither status nor counts.
 */
export interface OpinionCounts {
  total: number;
  upheld: number;
  rejected: number;
  unclear: number;
  uncounted: number;
}

export interface DisputeRow {
  id: Uint8Array;
  conversationId: Uint8Array;
  sender: Uint8Array;
  recipient: Uint8Array;
  /** Envelope timestamp, unix µs (the int8 column: saturated at 2^63-1). */
  timestampUs: bigint;
  receivedAt: Date;
  payloadLen: number;
  opinions: OpinionCounts;
}

export interface DisputeCursor {
  timestampUs: bigint;
  id: Uint8Array;
}

export interface ListDisputesParams {
  /** open: no counted opinion yet; reviewed: at least one. */
  status?: 'open' | 'reviewed';
  /** 1..200 (default 50). */
  limit?: number;
  /** The last row of the previous page: rows strictly older in (timestamp, id) order. */
  before?: DisputeCursor;
}

export interface OpinionRow {
  disputeId: Uint8Array;
  reviewer: Uint8Array;
  opinion: OpinionKind;
  note: string;
  message: string;
  signature: Uint8Array;
  signedAt: Date;
  receivedAt: Date;
  /**
   * The reviewer is named by the deployment (DISPUTE_REVIEWERS) when the row was written or the server last started.
   */
  counted: boolean;
}

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

const OPINION_COUNTS = `LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE o.counted)::int AS total,
      count(*) FILTER (WHERE o.counted AND o.opinion = 'upheld')::int AS upheld,
      count(*) FILTER (WHERE o.counted AND o.opinion = 'rejected')::int AS rejected,
      count(*) FILTER (WHERE o.counted AND o.opinion = 'unclear')::int AS unclear,
      count(*) FILTER (WHERE NOT o.counted)::int AS uncounted
    FROM dispute_opinion o WHERE o.dispute_id = e.id) oc ON true`;

const DISPUTE_COLS = `e.id, e.conversation_id, e.sender, e.recipient, e.timestamp::text AS ts, e.received_at,
  e.payload_len,
  oc.total, oc.upheld, oc.rejected, oc.unclear, oc.uncounted`;

function toDispute(r: Row): DisputeRow {
  return {
    id: u8(r.id),
    conversationId: u8(r.conversation_id),
    sender: u8(r.sender),
    recipient: u8(r.recipient),
    timestampUs: BigInt(String(r.ts)),
    receivedAt: new Date(r.received_at as Date),
    payloadLen: Number(r.payload_len),
    opinions: {
      total: Number(r.total),
      upheld: Number(r.upheld),
      rejected: Number(r.rejected),
      unclear: Number(r.unclear),
      uncounted: Number(r.uncounted),
    },
  };
}

function toOpinion(r: Row): OpinionRow {
  return {
    disputeId: u8(r.dispute_id),
    reviewer: u8(r.reviewer),
    opinion: r.opinion as OpinionKind,
    note: String(r.note),
    message: String(r.message),
    signature: u8(r.signature),
    signedAt: new Date(r.signed_at as Date),
    receivedAt: new Date(r.received_at as Date),
    counted: r.counted === true,
  };
}

/** One page of disputes, newest first; `next` is the cursor of the page's last row when more may follow. */
export async function listDisputes(
  q: Queryable,
  p: ListDisputesParams = {},
): Promise<{ disputes: DisputeRow[]; next: DisputeCursor | null }> {
  const limit = p.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new RangeError('limit must be an integer in 1..200');
  const args: unknown[] = [MsgType.DISPUTE];
  const where = ['e.msg_type = $1'];
  if (p.before) {
    args.push(p.before.timestampUs.toString(), p.before.id);
    where.push(`(e.timestamp, e.id) < ($${args.length - 1}::int8, $${args.length}::bytea)`);
  }
  if (p.status === 'open') where.push('oc.total = 0');
  if (p.status === 'reviewed') where.push('oc.total > 0');
  args.push(limit + 1);
  const rows = await q.query<Row>(
    `SELECT ${DISPUTE_COLS} FROM envelope e ${OPINION_COUNTS}
    WHERE ${where.join(' AND ')} ORDER BY e.timestamp DESC, e.id DESC LIMIT $${args.length}`,
    args,
  );
  const disputes = rows.slice(0, limit).map(toDispute);
  const last = disputes[disputes.length - 1];
  return { disputes, next: rows.length > limit && last ? { timestampUs: last.timestampUs, id: last.id } : null };
}

/** Every stored DISPUTE, and how many have at least one counted opinion. */
export async function disputeCounts(q: Queryable): Promise<{ total: number; open: number; reviewed: number }> {
  const [r] = await q.query<Row>(
    `SELECT
    (SELECT count(*) FROM envelope e WHERE e.msg_type = $1)::int AS total,
    (SELECT count(DISTINCT o.dispute_id) FROM dispute_opinion o WHERE o.counted)::int AS reviewed`,
    [MsgType.DISPUTE],
  );
  const total = Number(r.total);
  const reviewed = Number(r.reviewed);
  return { total, reviewed, open: Math.max(0, total - reviewed) };
}

/** One DISPUTE envelope with its opinion counts, or null when `id` is not a stored DISPUTE. */
export async function getDispute(q: Queryable, id: Uint8Array): Promise<DisputeRow | null> {
  const [r] = await q.query<Row>(
    `SELECT ${DISPUTE_COLS} FROM envelope e ${OPINION_COUNTS} WHERE e.id = $1 AND e.msg_type = $2 LIMIT 1`,
    [id, MsgType.DISPUTE],
  );
  return r ? toDispute(r) : null;
}

/** The current opinions on one dispute, oldest signature first. */
export async function disputeOpinions(q: Queryable, id: Uint8Array): Promise<OpinionRow[]> {
  const rows = await q.query<Row>(`SELECT * FROM dispute_opinion WHERE dispute_id = $1 ORDER BY signed_at, reviewer`, [
    id,
  ]);
  return rows.map(toOpinion);
}

/**
 * Stores a checked opinion as the reviewer's current one: `saved` (their first), `replaced` (it is
 * newer than theirs), `unchanged` (the very same signed message again) or `older` (theirs is as
 * new or newer: a replayed earlier message never overwrites a later one; nothing is written).
 */
export async function saveDisputeOpinion(
  q: Queryable,
  o: Omit<OpinionRow, 'receivedAt'> & { receivedAt?: Date },
): Promise<'saved' | 'replaced' | 'unchanged' | 'older'> {
  const rows = await q.query<Row>(
    `INSERT INTO dispute_opinion (dispute_id, reviewer, opinion, note, message, signature, signed_at, received_at,
      counted)
    VALUES ($1, $2, $3::"DisputeOpinionKind", $4, $5, $6, $7, $8, $9)
    ON CONFLICT (dispute_id, reviewer) DO UPDATE SET opinion = excluded.opinion, note = excluded.note, message =
      excluded.message,
      signature = excluded.signature, signed_at = excluded.signed_at, received_at = excluded.received_at, counted =
        excluded.counted
      WHERE dispute_opinion.signed_at < excluded.signed_at
    RETURNING (xmax = 0) AS inserted`,
    [
      o.disputeId,
      o.reviewer,
      o.opinion,
      o.note,
      o.message,
      o.signature,
      o.signedAt,
      o.receivedAt ?? new Date(),
      o.counted,
    ],
  );
  if (rows.length > 0) return rows[0].inserted ? 'saved' : 'replaced';
  const [kept] = await q.query<Row>(
    'SELECT message, signature FROM dispute_opinion WHERE dispute_id = $1 AND reviewer = $2',
    [o.disputeId, o.reviewer],
  );
  return kept && String(kept.message) === o.message && Buffer.from(u8(kept.signature)).equals(Buffer.from(o.signature))
    ? 'unchanged'
    : 'older';
}

/**
 * Counts the opinions of exactly `reviewers` (the deployment's DISPUTE_REVIEWERS, at each start):
 * a reviewer added to the list counts from then on, one removed stops counting. How many rows changed.
 */
export async function setDisputeReviewers(q: Queryable, reviewers: readonly Uint8Array[]): Promise<number> {
  const rows = await q.query(
    `UPDATE dispute_opinion SET counted = (reviewer = ANY($1::bytea[]))
    WHERE counted IS DISTINCT FROM (reviewer = ANY($1::bytea[])) RETURNING 1`,
    [[...reviewers]],
  );
  return rows.length;
}

/**
 * The envelopes of one conversation of the given types with their payloads, in protocol order (a dispute's verdict).
 */
export async function conversationPayloads(
  q: Queryable,
  conversationId: Uint8Array,
  types: readonly number[],
): Promise<
  { id: Uint8Array; msgType: number; sender: Uint8Array; recipient: Uint8Array; raw: Uint8Array; payloadLen: number }[]
> {
  const rows = await q.query<Row>(
    `SELECT id, msg_type, sender, recipient, raw, payload_len FROM envelope
    WHERE conversation_id = $1 AND msg_type = ANY($2::int[]) ORDER BY timestamp, nonce, id LIMIT 100`,
    [conversationId, [...types]],
  );
  return rows.map((r) => ({
    id: u8(r.id),
    msgType: Number(r.msg_type),
    sender: u8(r.sender),
    recipient: u8(r.recipient),
    raw: u8(r.raw),
    payloadLen: Number(r.payload_len),
  }));
}
