/**
 * Read queries for the pages and REST routes (0x01 spec §9). Raw SQL with
 * 64-bit columns cast to text, because PGlite returns int8 as a JS number (lossy past 2^53).
 */
import { decodeEnvelope } from '../../protocol/envelope';
import type { Queryable } from '../engine/db';
import type {
  AgentRow,
  ConversationDetail,
  ConversationGraph,
  ConversationRow,
  EnvelopeSource,
  FeedbackRow,
  NotaryBidRow,
  RecentEnvelopesParams,
  StoredEnvelope,
} from '../types';
import { epochOfFn } from './ingest';

const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const big = (v: unknown) => BigInt(String(v));
const num = (v: unknown) => Number(v);

const ENVELOPE_COLS = `id, seq::text AS seq, version, msg_type, sender, recipient, timestamp::text AS ts,
  block_ref::text AS block_ref, nonce::text AS nonce, conversation_id, payload_hash, payload_len, signature,
  raw, source::text AS source, topic, received_at, epoch`;

type Row = Record<string, unknown>;

/**
 * The payload inside a stored envelope's raw bytes (docs/protocol.md §2: item 10, followed by the
 * 64-byte signature, canonical CBOR so `0x58 0x40` + 64 bytes end the array). Falls back to a
 * full decode if the bytes do not end that way.
 */
export function payloadOf(raw: Uint8Array, payloadLen: number): Uint8Array {
  const end = raw.length - 66;
  if (end - payloadLen >= 0 && raw[end] === 0x58 && raw[end + 1] === 0x40) return raw.subarray(end - payloadLen, end);
  const d = decodeEnvelope(raw);
  return d.ok ? d.envelope.payload : new Uint8Array(0);
}

function toEnvelope(r: Row): StoredEnvelope {
  return {
    id: u8(r.id),
    seq: big(r.seq),
    envelope: {
      version: num(r.version),
      msgType: num(r.msg_type),
      sender: u8(r.sender),
      recipient: u8(r.recipient),
      timestamp: big(r.ts),
      blockRef: big(r.block_ref),
      nonce: big(r.nonce),
      conversationId: u8(r.conversation_id),
      payloadHash: u8(r.payload_hash),
      payloadLen: num(r.payload_len),
      payload: payloadOf(u8(r.raw), num(r.payload_len)),
      signature: u8(r.signature),
    },
    raw: u8(r.raw),
    source: r.source as EnvelopeSource,
    topic: (r.topic as string | null) ?? null,
    receivedAt: new Date(r.received_at as Date),
    epoch: num(r.epoch),
  };
}

function toAgent(r: Row): AgentRow {
  return {
    id: u8(r.id),
    firstSeen: new Date(r.first_seen as Date),
    lastSeen: new Date(r.last_seen as Date),
    label: (r.label as string | null) ?? null,
    online: Boolean(r.online),
    sent: num(r.sent),
  };
}

function toConversation(r: Row): ConversationRow {
  return {
    id: u8(r.id),
    participants: (r.participants as unknown[]).map(u8),
    firstSeen: new Date(r.first_seen as Date),
    lastSeen: new Date(r.last_seen as Date),
    state: r.state as string,
    messageCount: num(r.message_count),
    lastType: num(r.last_type),
    outcome: (r.outcome as string | null) ?? null,
  };
}

/** Widest time window (in epochs) read one epoch at a time; wider ones are one newest-first scan. */
const MAX_WINDOW_EPOCHS = 64;

/**
 * Latest envelopes first (by insertion order), filtered; `limit` 1..1000, default 50. With
 * `epochSeconds` (the store's), a time window also bounds `epoch`, so only the partitions of
 * that window are read (the planner prunes on the partition key, not on `timestamp`). An agent's
 * envelopes are its sent and its received ones, each read newest-first from its own (sender,
 * seq) / (recipient, seq) index and merged, so the page reads about `limit` rows per partition
 * instead of every envelope of the agent. A type in a time window of up to MAX_WINDOW_EPOCHS
 * epochs is read one epoch at a time from (msg_type, epoch, seq, timestamp).
 */
export async function recentEnvelopes(
  q: Queryable,
  p: RecentEnvelopesParams = {},
  epochSeconds?: number,
): Promise<StoredEnvelope[]> {
  const limit = p.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new RangeError('limit must be an integer in 1..1000');
  const where: string[] = [];
  const args: unknown[] = [];
  if (p.before !== undefined) {
    args.push(p.before.toString());
    where.push(`seq < $${args.length}::int8`);
  }
  if (p.type !== undefined) {
    args.push(p.type);
    where.push(`msg_type = $${args.length}`);
  }
  if (p.conversation) {
    args.push(p.conversation);
    where.push(`conversation_id = $${args.length}`);
  }
  // The timestamp column is unix µs.
  const epochOf = epochSeconds ? epochOfFn(epochSeconds) : undefined;
  const fromUs = p.fromMs === undefined ? undefined : BigInt(p.fromMs) * 1000n;
  const toUs = p.toMs === undefined ? undefined : BigInt(p.toMs) * 1000n + 999n;
  const fromEpoch = epochOf && fromUs !== undefined ? epochOf(fromUs) : undefined;
  const toEpoch = epochOf && toUs !== undefined && toUs >= 0n ? epochOf(toUs) : undefined;
  if (fromUs !== undefined) {
    args.push(String(fromUs));
    where.push(`timestamp >= $${args.length}::int8`);
  }
  if (fromEpoch !== undefined) {
    args.push(fromEpoch);
    where.push(`epoch >= $${args.length}::int4`);
  }
  if (toUs !== undefined) {
    args.push(String(toUs));
    where.push(`timestamp <= $${args.length}::int8`);
  }
  if (toEpoch !== undefined) {
    args.push(toEpoch);
    where.push(`epoch <= $${args.length}::int4`);
  }
  args.push(limit);
  const lim = `$${args.length}`;
  const and = (extra: string[]) => {
    const w = [...extra, ...where];
    return w.length ? `WHERE ${w.join(' AND ')}` : '';
  };
  // The page's keys first, from the indexes alone where they cover the filter ((x, seq, epoch,
  // timestamp) for x = msg_type, sender, recipient), then its rows by (seq, epoch): a page
  // reads its own rows from the table, not one row of every partition the newest-first merge
  // opens, nor the rows a filter rejects.
  let keys: string;
  if (
    fromEpoch !== undefined &&
    toEpoch !== undefined &&
    p.type !== undefined &&
    !p.agent &&
    !p.conversation &&
    toEpoch >= fromEpoch &&
    toEpoch - fromEpoch < MAX_WINDOW_EPOCHS
  ) {
    // A type in a time window: each epoch's newest page from (msg_type, epoch, seq, timestamp).
    // A newest-first scan of the whole window would walk past every newer envelope of the
    // window's last partition.
    args.push(fromEpoch, toEpoch);
    keys = `SELECT x.seq, x.epoch FROM generate_series($${args.length}::int4, $${args.length - 1}::int4, -1) g(ep)
      CROSS JOIN LATERAL (SELECT seq, epoch FROM envelope ${and(['epoch = g.ep'])} ORDER BY seq DESC LIMIT ${lim}) x
      ORDER BY x.seq DESC LIMIT ${lim}`;
  } else if (p.agent) {
    // Its sent and its received envelopes, each newest-first from its own index; UNION drops the
    // ones it sent to itself from the second list.
    args.push(p.agent);
    const a = `$${args.length}`;
    keys = `(SELECT seq, epoch FROM envelope ${and([`sender = ${a}`])} ORDER BY seq DESC LIMIT ${lim})
      UNION
      (SELECT seq, epoch FROM envelope ${and([`recipient = ${a}`])} ORDER BY seq DESC LIMIT ${lim})
      ORDER BY seq DESC LIMIT ${lim}`;
  } else {
    keys = `SELECT seq, epoch FROM envelope ${and([])} ORDER BY seq DESC LIMIT ${lim}`;
  }
  const sql = `SELECT ${ENVELOPE_COLS} FROM envelope JOIN (${keys}) k (k_seq, k_epoch) ON envelope.seq = k.k_seq AND
    envelope.epoch = k.k_epoch
    ORDER BY envelope.seq DESC`;
  const rows = await q.query<Row>(sql, args);
  return rows.map(toEnvelope);
}

export async function getEnvelope(q: Queryable, id: Uint8Array): Promise<StoredEnvelope | null> {
  const rows = await q.query<Row>(`SELECT ${ENVELOPE_COLS} FROM envelope WHERE id = $1`, [id]);
  return rows[0] ? toEnvelope(rows[0]) : null;
}

/** Stored envelopes per msg_type (from the counter table: O(13), not a scan). */
export async function countsByType(q: Queryable): Promise<Record<number, number>> {
  const rows = await q.query<Row>(`SELECT msg_type, count::text AS n FROM msg_type_counter ORDER BY msg_type`);
  return Object.fromEntries(rows.map((r) => [num(r.msg_type), num(r.n)]));
}

export async function dropCounts(q: Queryable): Promise<Record<string, number>> {
  const rows = await q.query<Row>(`SELECT reason, count::text AS n FROM drop_counter ORDER BY reason`);
  return Object.fromEntries(rows.map((r) => [r.reason as string, num(r.n)]));
}

export async function listAgents(q: Queryable, p: { limit?: number } = {}): Promise<AgentRow[]> {
  const rows = await q.query<Row>(`SELECT * FROM agent ORDER BY last_seen DESC, id LIMIT $1`, [p.limit ?? 1000]);
  return rows.map(toAgent);
}

export async function getAgent(q: Queryable, id: Uint8Array): Promise<AgentRow | null> {
  const rows = await q.query<Row>(`SELECT * FROM agent WHERE id = $1`, [id]);
  return rows[0] ? toAgent(rows[0]) : null;
}

/** Agents as nodes, agent pairs that exchanged direct envelopes as edges with message counts. */
export async function conversationGraph(q: Queryable, p: { limit?: number } = {}): Promise<ConversationGraph> {
  const nodes = await listAgents(q, p);
  const rows = await q.query<Row>(
    `SELECT agent_a, agent_b, messages FROM agent_pair ORDER BY messages DESC, agent_a, agent_b LIMIT $1`,
    [(p.limit ?? 1000) * 4],
  );
  return { nodes, edges: rows.map((r) => ({ a: u8(r.agent_a), b: u8(r.agent_b), messages: num(r.messages) })) };
}

export interface ListConversationsParams {
  limit?: number;
  agent?: Uint8Array;
  state?: string;
  before?: Date;
}

export async function listConversations(q: Queryable, p: ListConversationsParams = {}): Promise<ConversationRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  // Containment, not `= ANY(participants)`: the GIN index on participants answers it.
  if (p.agent) {
    args.push(p.agent);
    where.push(`participants @> ARRAY[$${args.length}::bytea]`);
  }
  if (p.state) {
    args.push(p.state);
    where.push(`state = $${args.length}`);
  }
  if (p.before) {
    args.push(p.before.toISOString());
    where.push(`last_seen < $${args.length}::timestamptz`);
  }
  args.push(p.limit ?? 100);
  const rows = await q.query<Row>(
    `SELECT * FROM conversation ${where.length ? `WHERE ${where.join(' AND ')}` : ''}` +
      ` ORDER BY last_seen DESC, id LIMIT $${args.length}`,
    args,
  );
  return rows.map(toConversation);
}

/**
 * Each conversation's negotiators (the senders and direct recipients of its PROPOSE, COUNTER,
 * ACCEPT and REJECT, as ingest keeps them), by conversation id (hex): one primary-key read for a
 * page of conversations.
 */
export async function conversationNegotiators(
  q: Queryable,
  ids: readonly Uint8Array[],
): Promise<Map<string, Uint8Array[]>> {
  const out = new Map<string, Uint8Array[]>();
  if (ids.length === 0) return out;
  const rows = await q.query<Row>(`SELECT id, negotiators FROM conversation WHERE id = ANY($1::bytea[])`, [[...ids]]);
  for (const r of rows)
    out.set(Buffer.from(u8(r.id)).toString('hex'), ((r.negotiators as unknown[] | null) ?? []).map(u8));
  return out;
}

/**
 * How many conversations `agent` took part in, counted up to `cap` (a count at the cap means
 * "cap or more"): the page says how many without reading every one of a busy agent's.
 */
export async function countAgentConversations(q: Queryable, agent: Uint8Array, cap: number): Promise<number> {
  const [r] = await q.query<Row>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM conversation WHERE participants @> ARRAY[$1::bytea] LIMIT $2) x`,
    [agent, cap],
  );
  return Number(r.n);
}

/** A conversation with its envelopes in protocol order (timestamp, nonce), feedback and bids. */
export async function getConversation(q: Queryable, id: Uint8Array): Promise<ConversationDetail | null> {
  const rows = await q.query<Row>(`SELECT * FROM conversation WHERE id = $1`, [id]);
  if (!rows[0]) return null;
  const envs = await q.query<Row>(
    `SELECT ${ENVELOPE_COLS} FROM envelope WHERE conversation_id ` +
      `= $1 ORDER BY envelope.timestamp, envelope.nonce, envelope.seq`,
    [id],
  );
  const fb = await q.query<Row>(
    `SELECT *, timestamp::text AS ts FROM feedback WHERE conversation_id = $1 ORDER BY timestamp, envelope_id`,
    [id],
  );
  const bids = await q.query<Row>(
    `SELECT *, timestamp::text AS ts FROM notary_bid WHERE conversation_id = $1 ORDER BY timestamp, envelope_id`,
    [id],
  );
  return {
    ...toConversation(rows[0]),
    envelopes: envs.map(toEnvelope),
    feedback: fb.map(
      (r): FeedbackRow => ({
        envelopeId: u8(r.envelope_id),
        conversationId: u8(r.conversation_id),
        fromAgent: u8(r.from_agent),
        targetAgent: u8(r.target_agent),
        score: num(r.score),
        outcome: num(r.outcome),
        isDispute: Boolean(r.is_dispute),
        role: num(r.role),
        timestamp: big(r.ts),
      }),
    ),
    notaryBids: bids.map(
      (r): NotaryBidRow => ({
        envelopeId: u8(r.envelope_id),
        conversationId: u8(r.conversation_id),
        bidder: u8(r.bidder),
        recipient: u8(r.recipient),
        bidType: num(r.bid_type),
        terms: u8(r.terms),
        timestamp: big(r.ts),
      }),
    ),
  };
}

/** Feedback about `agent` (target), oldest first, for the reputation fold. */
export async function feedbackFor(q: Queryable, agent: Uint8Array, limit = 10_000): Promise<FeedbackRow[]> {
  const rows = await q.query<Row>(
    `SELECT *, timestamp::text AS ts FROM feedback WHERE target_agent = $1 ORDER BY timestamp, envelope_id LIMIT $2`,
    [agent, limit],
  );
  return rows.map((r) => ({
    envelopeId: u8(r.envelope_id),
    conversationId: u8(r.conversation_id),
    fromAgent: u8(r.from_agent),
    targetAgent: u8(r.target_agent),
    score: num(r.score),
    outcome: num(r.outcome),
    isDispute: Boolean(r.is_dispute),
    role: num(r.role),
    timestamp: big(r.ts),
  }));
}
