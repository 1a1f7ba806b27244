/**
 * The ingest hot path. Per batch, one statement
 * inserts the envelopes with `ON CONFLICT (id, epoch) DO NOTHING RETURNING id` (the primary key of
 * the partitioned table; an id fixes its epoch, so this is the id's uniqueness) and derives agents,
 * conversations, pairs, FEEDBACK and NOTARIZE_BID rows, per-agent feedback counts (for the stored
 * gossip fold, reputation.ts) and per-type counters set-based from
 * exactly the rows it inserted. On Postgres the batch travels as binary array parameters of that
 * one prepared statement (one round trip, atomic without a transaction block); on PGlite, which
 * has no round trips to save, a binary `COPY` into a session-local staging table precedes it in
 * one transaction (stage.ts encodes both forms from one column list). So a
 * re-seen envelope creates nothing and counts nothing, across restarts and across several
 * processes writing to one Postgres. Derived values are order-independent (min/max/sum/bit_or, ties
 * broken by msg_type), so any split of the same envelopes into batches gives the same rows.
 */
import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import type { Db, Tx } from '../engine/db';
import { STATS_PENDING_CTE } from '../stats/stats';
import type { IngestItem, IngestResult } from '../types';
import { storedStateSql } from './derive';
import { encodeColumns, encodeStage, STAGE_DDL, UNNEST_COLUMNS } from './stage';

/** Stage and outcome of the merged mask, when a conversation row exists already, and of a new row. */
const merged = storedStateSql('(c.types_seen | excluded.types_seen)');
const created = storedStateSql('cv.types_seen');

/** The staged row is a negotiation message (its sender and recipient are the conversation's negotiators). */
const NEGOTIATION = `msg_type IN (${[MsgType.PROPOSE, MsgType.COUNTER, MsgType.ACCEPT, MsgType.REJECT].join(', ')})`;
/** A stored sorted-set array column of `conversation` joined with the incoming one (unchanged when it adds nothing). */
const setUnion = (col: string) => `CASE WHEN excluded.${col} <@ c.${col} THEN c.${col}
      ELSE ARRAY(SELECT DISTINCT p FROM unnest(c.${col} || excluded.${col}) AS p ORDER BY p) END`;
const U64 = '18446744073709551616';
const u64 = (c: string) => `CASE WHEN s.${c} < 0 THEN s.${c}::numeric + ${U64} ELSE s.${c}::numeric END`;

/**
 * The ingest statement over the staged rows `stage` (a table or a CTE with STAGE_COLUMNS);
 * `rollups` false leaves the stats out (only to measure what they cost: bench:query).
 */
const ingestSql = (head: string, stage: string, rollups = true) => `
WITH ${head}ins AS (
  INSERT INTO envelope (id, version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id,
    payload_hash, payload_len, signature, raw, source, topic, received_at, epoch)
  SELECT s.id, s.version, s.msg_type, s.sender, s.recipient, s.ts, ${u64('block_ref')}, ${u64('nonce')},
    s.conversation_id,
    s.payload_hash, s.payload_len, s.signature, s.raw, s.source::"EnvelopeSource", s.topic, s.received_at, s.epoch
  FROM ${stage} s ORDER BY s.id
  ON CONFLICT (id, epoch) DO NOTHING
  RETURNING id
), n AS MATERIALIZED (
  SELECT s.* FROM ${stage} s JOIN ins ON ins.id = s.id
), ap AS (
  SELECT sender AS id, received_at AS at, 1 AS sent FROM n
  UNION ALL SELECT recipient, received_at, 0 FROM n WHERE direct
), ag AS (
  INSERT INTO agent AS a (id, first_seen, last_seen, sent)
  SELECT id, min(at), COALESCE(max(at) FILTER (WHERE sent = 1), min(at)), sum(sent)::int
  FROM ap GROUP BY id ORDER BY id
  ON CONFLICT (id) DO UPDATE SET
    first_seen = LEAST(a.first_seen, excluded.first_seen),
    last_seen = CASE WHEN excluded.sent = 0 THEN (CASE WHEN a.sent = 0 THEN LEAST(a.last_seen, excluded.last_seen) ELSE
      a.last_seen END)
                     WHEN a.sent = 0 THEN excluded.last_seen ELSE GREATEST(a.last_seen, excluded.last_seen) END,
    sent = a.sent + excluded.sent
  RETURNING id, idx, (xmax = 0) AS inserted
), cp AS (
  SELECT conversation_id AS id, array_agg(DISTINCT p ORDER BY p) AS parts,
    COALESCE(array_agg(DISTINCT p ORDER BY p) FILTER (WHERE neg), '{}') AS negs FROM (
    SELECT conversation_id, sender AS p, ${NEGOTIATION} AS neg FROM n WHERE tbit IS NOT NULL
    UNION ALL SELECT conversation_id, recipient, ${NEGOTIATION} FROM n WHERE tbit IS NOT NULL AND direct) x
  GROUP BY conversation_id
), cv AS (
  SELECT conversation_id AS id, min(received_at) AS f, max(received_at) AS l, max(ts) AS last_ts,
    (array_agg(msg_type ORDER BY ts DESC, msg_type DESC))[1] AS last_type, bit_or(tbit) AS types_seen, count(*)::int AS
      cnt
  FROM n WHERE tbit IS NOT NULL GROUP BY conversation_id
), co AS (
  INSERT INTO conversation AS c (id, participants, negotiators, first_seen, last_seen, last_ts, last_type, state,
    types_seen, outcome, message_count)
  SELECT cv.id, cp.parts, cp.negs, cv.f, cv.l, cv.last_ts, cv.last_type, ${created.state}, cv.types_seen,
    ${created.outcome}, cv.cnt
  FROM cv JOIN cp ON cp.id = cv.id ORDER BY cv.id
  ON CONFLICT (id) DO UPDATE SET
    participants = ${setUnion('participants')},
    negotiators = ${setUnion('negotiators')},
    first_seen = LEAST(c.first_seen, excluded.first_seen),
    last_seen = GREATEST(c.last_seen, excluded.last_seen),
    last_type = CASE WHEN (excluded.last_ts, excluded.last_type) > (c.last_ts, c.last_type) THEN excluded.last_type ELSE
      c.last_type END,
    last_ts = GREATEST(c.last_ts, excluded.last_ts),
    state = ${merged.state},
    outcome = ${merged.outcome},
    types_seen = c.types_seen | excluded.types_seen,
    message_count = c.message_count + excluded.message_count
), pr AS (
  INSERT INTO agent_pair AS p (agent_a, agent_b, messages, last_seen)
  SELECT LEAST(sender, recipient), GREATEST(sender, recipient), count(*)::int, max(received_at)
  FROM n WHERE direct GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (agent_a, agent_b) DO UPDATE SET
    messages = p.messages + excluded.messages, last_seen = GREATEST(p.last_seen, excluded.last_seen)
), fb AS (
  INSERT INTO feedback (envelope_id, conversation_id, from_agent, target_agent, score, outcome, is_dispute, role,
    timestamp, epoch)
  SELECT id, fb_conv, sender, fb_target, fb_score, fb_outcome, fb_dispute, fb_role, ts, epoch
  FROM n WHERE fb_conv IS NOT NULL ORDER BY id
  ON CONFLICT (envelope_id) DO NOTHING
), bd AS (
  INSERT INTO notary_bid (envelope_id, conversation_id, bidder, recipient, bid_type, terms, timestamp)
  SELECT id, bid_conv, sender, recipient, bid_type, bid_terms, ts FROM n WHERE bid_conv IS NOT NULL ORDER BY id
  ON CONFLICT (envelope_id) DO NOTHING
), rc AS (
  -- FEEDBACK rows per agent, counted: a reader whose stored gossip fold covers fewer rows folds
  -- the rest (reputation.ts). An increment, so concurrent batches need no ordering.
  INSERT INTO reputation_state AS r (agent_id, kind, reliability_score, cooperation_index, notary_accuracy, total_tasks,
    total_notarized,
    total_disputes, updated_at, feedback_count)
  SELECT fb_target, 'gossip', 0, 0, 0, 0, 0, 0, now(), count(*)::int FROM n WHERE fb_conv IS NOT NULL GROUP BY fb_target
    ORDER BY fb_target
  ON CONFLICT (agent_id, kind) DO UPDATE SET feedback_count = r.feedback_count + excluded.feedback_count
), tc AS (
  INSERT INTO msg_type_counter AS t (msg_type, count)
  SELECT msg_type, count(*) FROM n GROUP BY msg_type ORDER BY msg_type
  ON CONFLICT (msg_type) DO UPDATE SET count = t.count + excluded.count
)${rollups ? `, ${STATS_PENDING_CTE}` : ''}
SELECT false AS agent, id FROM ins UNION ALL SELECT true, id FROM ag WHERE inserted`;

/** PGlite: the batch is in the session's zx_stage (COPY in the same transaction). */
export const INGEST_SQL = ingestSql('', 'zx_stage');
/** Postgres: the batch is the binary array parameters of encodeColumns, one per staged column. */
export const INGEST_PARAMS_SQL = ingestSql(`input AS (SELECT * FROM ${UNNEST_COLUMNS}), `, 'input');
/** The same two without the stats rollups, and their prepared statement names. */
const BARE = {
  pglite: { name: 'zx_ingest_bare', sql: ingestSql('', 'zx_stage', false) },
  params: {
    name: 'zx_ingest_params_bare',
    sql: ingestSql(`input AS (SELECT * FROM ${UNNEST_COLUMNS}), `, 'input', false),
  },
};
const FULL = {
  pglite: { name: 'zx_ingest', sql: INGEST_SQL },
  params: { name: 'zx_ingest_params', sql: INGEST_PARAMS_SQL },
};

/** ingestBatch's options. */
export interface IngestOptions {
  /**
   * Keep the stats rollups (default true). false only measures what they cost (bench:query): the charts then miss these
   * envelopes.
   */
  statsRollups?: boolean;
}

/** Epoch number of a timestamp (µs), clamped to int4. */
export function epochOfFn(epochSeconds: number): (ts: bigint) => number {
  const len = BigInt(epochSeconds) * 1_000_000n;
  return (ts) => {
    const e = ts / len;
    return e > 2147483647n ? 2147483647 : Number(e);
  };
}

/** Sessions that already have zx_stage (temp tables are per connection). */
const staged = new WeakSet<object>();

/**
 * Stores a batch in one transaction; retried on deadlock/serialization failure.
 * Items with an id already stored (or repeated within the batch) count as duplicates.
 */
export async function ingestBatch(
  db: Db,
  items: readonly IngestItem[],
  epochSeconds: number,
  opts: IngestOptions = {},
): Promise<IngestResult> {
  if (items.length === 0) return { inserted: 0, duplicates: 0, newIds: [], newAgents: [] };
  const stmt = opts.statsRollups === false ? BARE : FULL;
  const epochOf = epochOfFn(epochSeconds);
  // Sort by id (the same lock order in every process) and drop repeats within the batch.
  const byId = [...items].sort((a, b) => Buffer.compare(a.id, b.id));
  const sorted: IngestItem[] = [];
  for (const it of byId)
    if (sorted.length === 0 || Buffer.compare(sorted[sorted.length - 1].id, it.id) !== 0) sorted.push(it);
  for (let attempt = 0; ; attempt++) {
    let session: object | undefined;
    try {
      if (db.kind === 'postgres') {
        const rows = await db.prepared<Row>(stmt.params.name, stmt.params.sql, encodeColumns(sorted, epochOf));
        return result(rows, sorted, items.length);
      }
      const data = encodeStage(sorted, epochOf);
      return await db.transaction(async (tx) => {
        session = tx.session;
        return writeBatch(tx, stmt.pglite, sorted, data, items.length);
      });
    } catch (e) {
      // A rolled-back CREATE TEMP TABLE is gone with the transaction.
      if (session) staged.delete(session);
      const code = (e as { code?: string }).code;
      if (attempt < 5 && (code === '40P01' || code === '40001')) continue;
      throw e;
    }
  }
}

type Row = { agent: boolean; id: Uint8Array };

async function writeBatch(
  tx: Tx,
  stmt: { name: string; sql: string },
  sorted: IngestItem[],
  data: Uint8Array,
  total: number,
): Promise<IngestResult> {
  if (!staged.has(tx.session)) {
    await tx.query(STAGE_DDL);
    staged.add(tx.session);
  }
  await tx.copyIn('zx_stage', data);
  return result(await tx.prepared<Row>(stmt.name, stmt.sql), sorted, total);
}

/** Ids this statement inserted, in batch order, and agents it created. */
function result(rows: Row[], sorted: IngestItem[], total: number): IngestResult {
  const newAgents: Uint8Array[] = [];
  let inserted = 0;
  for (const r of rows) {
    if (r.agent) newAgents.push(new Uint8Array(r.id));
    else inserted++;
  }
  let newIds: Uint8Array[];
  if (inserted === sorted.length)
    newIds = sorted.map((it) => it.id); // all new: the common case
  else {
    const fresh = new Set<string>();
    for (const r of rows)
      if (!r.agent) fresh.add(Buffer.from(r.id.buffer, r.id.byteOffset, r.id.byteLength).toString('hex'));
    newIds = sorted.filter((it) => fresh.has(toHex(it.id))).map((it) => it.id);
  }
  return { inserted: newIds.length, duplicates: total - newIds.length, newIds, newAgents };
}
