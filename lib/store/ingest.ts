/**
 * The ingest hot path (issue 3 "Ingest is batched and idempotent"): one transaction per batch,
 * every table written with one `INSERT … SELECT FROM unnest(arrays)` statement, envelopes with
 * `ON CONFLICT (id) DO NOTHING RETURNING id`, so a re-seen envelope costs one index probe and
 * creates nothing, and the derived rows (agents, conversations, pairs, feedback, bids, counters)
 * are computed from the rows this transaction actually inserted: exact across restarts and
 * across several processes writing to one Postgres. Raw SQL because Prisma's createMany has no
 * RETURNING of only-inserted rows and is several times slower here.
 */
import { toHex } from '../protocol/hex';
import { derive } from './derive';
import type { Db, Queryable } from './db';
import type { IngestItem, IngestResult } from './types';

const INT8_MAX = (1n << 63n) - 1n;
const iso = (d: Date) => d.toISOString();
const s = (v: bigint) => (v > INT8_MAX ? INT8_MAX : v).toString();
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};

const INSERT_ENVELOPES = `
INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id,
  payload_hash, payload_len, payload, signature, raw, source, topic, received_at, epoch)
SELECT id, version, msg_type, sender, recipient, ts, block_ref, nonce, conversation_id, payload_hash, payload_len,
  payload, signature, raw, source::"EnvelopeSource", topic, received_at, epoch
FROM unnest($1::bytea[], $2::int[], $3::int[], $4::bytea[], $5::bytea[], $6::int8[], $7::numeric[], $8::numeric[],
  $9::bytea[], $10::bytea[], $11::int[], $12::bytea[], $13::bytea[], $14::bytea[], $15::text[], $16::text[],
  $17::timestamptz[], $18::int[])
  AS u(id, version, msg_type, sender, recipient, ts, block_ref, nonce, conversation_id, payload_hash, payload_len,
       payload, signature, raw, source, topic, received_at, epoch)
ON CONFLICT (id) DO NOTHING
RETURNING id`;

const UPSERT_AGENTS = `
INSERT INTO agent (id, first_seen, last_seen, sent)
SELECT * FROM unnest($1::bytea[], $2::timestamptz[], $3::timestamptz[], $4::int[])
ON CONFLICT (id) DO UPDATE SET
  first_seen = LEAST(agent.first_seen, excluded.first_seen),
  last_seen = CASE WHEN excluded.sent > 0 THEN GREATEST(agent.last_seen, excluded.last_seen) ELSE agent.last_seen END,
  sent = agent.sent + excluded.sent
RETURNING id, (xmax = 0) AS inserted`;

// participants arrive concatenated (n × 32 bytes) so one unnest carries a variable-length list.
const UPSERT_CONVERSATIONS = `
INSERT INTO conversation (id, participants, first_seen, last_seen, last_ts, state, state_rank, message_count, last_type, outcome)
SELECT id, ARRAY(SELECT substring(parts FROM i FOR 32) FROM generate_series(1, length(parts), 32) AS i),
  first_seen, last_seen, last_ts, state, state_rank, message_count, last_type, outcome
FROM unnest($1::bytea[], $2::bytea[], $3::timestamptz[], $4::timestamptz[], $5::int8[], $6::text[], $7::int[],
  $8::int[], $9::int[], $10::text[])
  AS u(id, parts, first_seen, last_seen, last_ts, state, state_rank, message_count, last_type, outcome)
ON CONFLICT (id) DO UPDATE SET
  participants = ARRAY(SELECT DISTINCT p FROM unnest(conversation.participants || excluded.participants) AS p ORDER BY p),
  first_seen = LEAST(conversation.first_seen, excluded.first_seen),
  last_seen = GREATEST(conversation.last_seen, excluded.last_seen),
  last_type = CASE WHEN excluded.last_ts >= conversation.last_ts THEN excluded.last_type ELSE conversation.last_type END,
  last_ts = GREATEST(conversation.last_ts, excluded.last_ts),
  state = CASE WHEN excluded.state_rank > conversation.state_rank THEN excluded.state ELSE conversation.state END,
  outcome = CASE WHEN excluded.state_rank > conversation.state_rank THEN excluded.outcome ELSE conversation.outcome END,
  state_rank = GREATEST(conversation.state_rank, excluded.state_rank),
  message_count = conversation.message_count + excluded.message_count`;

const UPSERT_PAIRS = `
INSERT INTO agent_pair (agent_a, agent_b, messages, last_seen)
SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::int[], $4::timestamptz[])
ON CONFLICT (agent_a, agent_b) DO UPDATE SET
  messages = agent_pair.messages + excluded.messages,
  last_seen = GREATEST(agent_pair.last_seen, excluded.last_seen)`;

const INSERT_FEEDBACK = `
INSERT INTO feedback (envelope_id, conversation_id, from_agent, target_agent, score, outcome, is_dispute, role, timestamp, epoch)
SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::bytea[], $4::bytea[], $5::int[], $6::int[], $7::bool[], $8::int[], $9::int8[], $10::int[])
ON CONFLICT (envelope_id) DO NOTHING`;

const INSERT_BIDS = `
INSERT INTO notary_bid (envelope_id, conversation_id, bidder, recipient, bid_type, terms, timestamp)
SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::bytea[], $4::bytea[], $5::int[], $6::bytea[], $7::int8[])
ON CONFLICT (envelope_id) DO NOTHING`;

const UPSERT_TYPE_COUNTS = `
INSERT INTO msg_type_counter (msg_type, count)
SELECT * FROM unnest($1::int[], $2::int8[])
ON CONFLICT (msg_type) DO UPDATE SET count = msg_type_counter.count + excluded.count`;

/** Epoch number of a timestamp (µs), clamped to int4. */
export function epochOfFn(epochSeconds: number): (ts: bigint) => number {
  const len = BigInt(epochSeconds) * 1_000_000n;
  return (ts) => {
    const e = ts / len;
    return e > 2147483647n ? 2147483647 : Number(e);
  };
}

/**
 * Stores a batch in one transaction; retried on deadlock/serialization failure.
 * Items with an id already stored (or repeated within the batch) count as duplicates.
 */
export async function ingestBatch(db: Db, items: readonly IngestItem[], epochSeconds: number): Promise<IngestResult> {
  if (items.length === 0) return { inserted: 0, duplicates: 0, newIds: [], newAgents: [] };
  const epochOf = epochOfFn(epochSeconds);
  // Dedupe within the batch and sort by id: the same lock order in every process.
  const unique = new Map<string, IngestItem>();
  for (const it of items) {
    const k = toHex(it.id);
    if (!unique.has(k)) unique.set(k, it);
  }
  const sorted = [...unique.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction((tx) => writeBatch(tx, sorted, items.length, epochOf));
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (attempt < 5 && (code === '40P01' || code === '40001')) continue;
      throw e;
    }
  }
}

async function writeBatch(tx: Queryable, items: IngestItem[], total: number, epochOf: (ts: bigint) => number): Promise<IngestResult> {
  const col = <T>(f: (it: IngestItem) => T) => items.map(f);
  const rows = await tx.query<{ id: Uint8Array }>(INSERT_ENVELOPES, [
    col((it) => it.id), col((it) => it.envelope.version), col((it) => it.envelope.msgType),
    col((it) => it.envelope.sender), col((it) => it.envelope.recipient), col((it) => s(it.envelope.timestamp)),
    col((it) => it.envelope.blockRef.toString()), col((it) => it.envelope.nonce.toString()),
    col((it) => it.envelope.conversationId), col((it) => it.envelope.payloadHash), col((it) => it.envelope.payloadLen),
    col((it) => it.envelope.payload), col((it) => it.envelope.signature), col((it) => it.raw),
    col((it) => it.source), col((it) => it.topic ?? null), col((it) => iso(it.receivedAt)),
    col((it) => epochOf(it.envelope.timestamp)),
  ]);
  const fresh = new Set(rows.map((r) => toHex(r.id)));
  const newItems = items.filter((it) => fresh.has(toHex(it.id)));
  const result: IngestResult = { inserted: newItems.length, duplicates: total - newItems.length, newIds: newItems.map((it) => it.id), newAgents: [] };
  if (newItems.length === 0) return result;
  const d = derive(newItems, epochOf);
  const agentRows = await tx.query<{ id: Uint8Array; inserted: boolean }>(UPSERT_AGENTS, [
    d.agents.map((a) => a.id), d.agents.map((a) => iso(a.first)), d.agents.map((a) => iso(a.last)), d.agents.map((a) => a.sent),
  ]);
  result.newAgents = agentRows.filter((r) => r.inserted).map((r) => new Uint8Array(r.id));
  if (d.conversations.length) {
    const c = d.conversations;
    await tx.query(UPSERT_CONVERSATIONS, [
      c.map((x) => x.id), c.map((x) => concat(x.participants)), c.map((x) => iso(x.first)), c.map((x) => iso(x.last)),
      c.map((x) => s(x.lastTs)), c.map((x) => x.state), c.map((x) => x.rank), c.map((x) => x.count),
      c.map((x) => x.lastType), c.map((x) => x.outcome),
    ]);
  }
  if (d.pairs.length) {
    const p = d.pairs;
    await tx.query(UPSERT_PAIRS, [p.map((x) => x.a), p.map((x) => x.b), p.map((x) => x.messages), p.map((x) => iso(x.last))]);
  }
  if (d.feedback.length) {
    const f = d.feedback;
    await tx.query(INSERT_FEEDBACK, [
      f.map((x) => x.envelopeId), f.map((x) => x.conversationId), f.map((x) => x.from), f.map((x) => x.target),
      f.map((x) => x.score), f.map((x) => x.outcome), f.map((x) => x.isDispute), f.map((x) => x.role),
      f.map((x) => s(x.timestamp)), f.map((x) => x.epoch),
    ]);
  }
  if (d.bids.length) {
    const b = d.bids;
    await tx.query(INSERT_BIDS, [
      b.map((x) => x.envelopeId), b.map((x) => x.conversationId), b.map((x) => x.bidder), b.map((x) => x.recipient),
      b.map((x) => x.bidType), b.map((x) => x.terms), b.map((x) => s(x.timestamp)),
    ]);
  }
  const types = [...d.typeCounts.entries()].sort((a, b) => a[0] - b[0]);
  await tx.query(UPSERT_TYPE_COUNTS, [types.map((t) => t[0]), types.map((t) => String(t[1]))]);
  return result;
}
