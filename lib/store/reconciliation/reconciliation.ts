/**
 * Gossip ↔ chain reconciliation per agent and epoch: what the observer saw live on the mesh
 * against the epoch log the agent committed to on chain (docs/app.md "Reconciliation").
 *
 * An envelope belongs in agent X's log of epoch e when it is dated in e (the envelope table's
 * `epoch` column, the same EPOCH_SECONDS as the chain's epochs) and X sent it, it is addressed to
 * X, or it is a FEEDBACK about X (docs/protocol.md §5). "Seen" means the observer stored it from
 * gossip or from a direct stream (`source` gossip/stream); an envelope it first got from an upload
 * was never seen on the mesh. A log is committed only when its batch is `verified` (the uploaded
 * log has the on-chain root); for any other verdict nothing is compared and the figures are null.
 *
 * Figures of one agent-epoch are computed once, when the batch verdict is reached or changes
 * (chain.ts setBatchStatus calls {@link refreshReconciliation}), into `reconciliation`, and the
 * totals per verdict are kept in `reconciliation_total` by the same statement (old row out, new
 * row in), so no read ever scans `envelope` across agents. The per-topic figures count each
 * envelope once, in its sender's row: of the envelopes the agent sent that the observer saw on a
 * topic (or on a stream), how many appear in some committed log of that epoch (the sender's, a
 * recipient's or a FEEDBACK target's). When an agent's log becomes committed, the rows of the
 * other senders in it are recomputed, since their envelopes may now be in a committed log.
 *
 * A single agent-epoch's envelope ids (what each figure counts) are read live by its keys:
 * {@link reconciliationDetail}. Envelopes stored after the verdict are in the live read and not
 * in the stored row until the verdict changes again.
 */
import type { Queryable } from '../engine/db';

/** The per-topic buckets: the three gossip topics (docs/protocol.md §9) and direct streams. */
export const RECON_TOPICS = ['broadcast', 'notary', 'reputation', 'stream'] as const;
export type ReconTopic = (typeof RECON_TOPICS)[number];
const TOPIC_OF: Record<string, ReconTopic> = {
  '/0x01/v1/broadcast': 'broadcast',
  '/0x01/v1/notary': 'notary',
  '/0x01/v1/reputation': 'reputation',
};

export interface TopicFigures {
  seen: number;
  committed: number;
}

/**
 * One agent-epoch. Figures are null unless `status` is verified (an unverified batch has no stored row, only its
 * status).
 */
export interface ReconciliationRow {
  agent: Uint8Array;
  epoch: bigint;
  status: 'verified' | 'mismatch' | 'unverified';
  logEntries: number;
  seen: number | null;
  seenLogged: number | null;
  seenNotLogged: number | null;
  loggedNotSeen: number | null;
  topics: Record<ReconTopic, TopicFigures> | null;
  /** Null for an unverified batch: nothing was computed. */
  computedAt: Date | null;
}

export interface ReconciliationTotals {
  /** Agent-epochs per verdict (only verified ones are compared). */
  verified: number;
  mismatch: number;
  logEntries: number;
  seen: number;
  seenLogged: number;
  seenNotLogged: number;
  loggedNotSeen: number;
  topics: Record<ReconTopic, TopicFigures>;
}

/** A live read of one agent-epoch: the envelope ids behind each figure. */
export interface ReconciliationDetail {
  agent: Uint8Array;
  epoch: bigint;
  /** The batch's verdict, or null when no batch of (agent, epoch) is indexed. */
  status: 'verified' | 'mismatch' | 'unverified' | null;
  logEntries: number;
  stored: ReconciliationRow | null;
  /** Null unless status is verified. */
  live: null | {
    seen: number;
    seenLogged: number;
    /** seen − seenLogged, and the first DETAIL_LIST_LIMIT of them by id. */
    seenNotLogged: number;
    seenNotLoggedIds: EnvelopeRef[];
    /** Log entries never seen live, and the first DETAIL_LIST_LIMIT of them by id. */
    loggedNotSeen: number;
    loggedNotSeenIds: EnvelopeRef[];
    topics: Record<ReconTopic, TopicFigures & { notCommittedIds: EnvelopeRef[] }>;
  };
}

/** An envelope behind a figure; msgType and topic are null when the envelope is not stored. */
export interface EnvelopeRef {
  id: Uint8Array;
  msgType: number | null;
  via: string | null;
  topic: string | null;
}

const I32_MAX = 2_147_483_647n;
type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const TOPIC_COLS = RECON_TOPICS.flatMap((t) => [`seen_${t}`, `committed_${t}`]);

/**
 * The envelope table's epoch for a chain epoch; beyond the int4 column, -10: no envelope has it,
 * nor either neighbour the log-entry lookups also read.
 */
const envEpoch = (epoch: bigint) => (epoch >= 0n && epoch <= I32_MAX - 1n ? Number(epoch) : -10);

function check(agent: Uint8Array, epoch: bigint): void {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  if (typeof epoch !== 'bigint' || epoch < 0n || epoch > (1n << 63n) - 1n)
    throw new RangeError('epoch must be a bigint in 0..2^63-1');
}

/**
 * The CTEs every read shares, parameters $1 agent, $2 epoch (int8), $3 the envelope table's epoch:
 * `lg` the uploaded log's ids, `mine` the live-seen envelopes that belong in the log (§5 rule),
 * `sent` those the agent sent with their topic bucket, `cl` the ids of every committed log of the
 * epoch that can hold one of them (the agent's and its recipients' and FEEDBACK targets').
 */
const BASE = `lg AS (SELECT envelope_id AS id FROM epoch_log_entry WHERE agent_id = $1 AND epoch = $2::int8),
  mine AS (
    SELECT e.id, e.sender, e.recipient, e.msg_type, e.source::text AS source, e.topic FROM envelope e
      WHERE e.epoch = $3::int4 AND e.sender = $1 AND e.source <> 'upload'
    UNION
    SELECT e.id, e.sender, e.recipient, e.msg_type, e.source::text, e.topic FROM envelope e
      WHERE e.epoch = $3::int4 AND e.recipient = $1 AND e.source <> 'upload'
    UNION
    SELECT e.id, e.sender, e.recipient, e.msg_type, e.source::text, e.topic FROM feedback f
      JOIN envelope e ON e.id = f.envelope_id AND e.epoch = $3::int4
      WHERE f.target_agent = $1 AND f.epoch = $3::int4 AND e.source <> 'upload'),
  sent AS (
    SELECT m.id, CASE WHEN m.source = 'stream' THEN 'stream' WHEN m.topic = '/0x01/v1/broadcast' THEN 'broadcast'
      WHEN m.topic = '/0x01/v1/notary' THEN 'notary' WHEN m.topic = '/0x01/v1/reputation' THEN 'reputation' END AS
        bucket, m.msg_type, m.source, m.topic
    FROM mine m WHERE m.sender = $1),
  peers AS (
    SELECT $1::bytea AS a UNION SELECT m.recipient FROM mine m WHERE m.sender = $1
    UNION SELECT f.target_agent FROM feedback f WHERE f.from_agent = $1 AND f.epoch = $3::int4 AND f.envelope_id IN
      (SELECT id FROM sent)),
  cl AS (
    SELECT DISTINCT l.envelope_id AS id FROM epoch_log_entry l
      JOIN batch vb ON vb.agent_id = l.agent_id AND vb.epoch = l.epoch AND vb.status = 'verified'
      WHERE l.epoch = $2::int8 AND l.agent_id IN (SELECT a FROM peers)),
  lseen AS (
    SELECT lg.id FROM lg WHERE EXISTS (SELECT 1 FROM envelope e WHERE e.id = lg.id
      AND e.epoch BETWEEN $3::int4 - 1 AND $3::int4 + 1 AND e.source <> 'upload'))`;

const topicSelect = RECON_TOPICS.map(
  (t) => `(SELECT count(*) FROM sent WHERE bucket = '${t}')::int AS seen_${t},
    (SELECT count(*) FROM sent WHERE bucket = '${t}' AND id IN (SELECT id FROM cl))::int AS committed_${t}`,
).join(',\n    ');

/** The new row's values (all figures null unless verified), `st` the batch's verdict. */
const FIGURES = `fig AS (
  SELECT $1::bytea AS agent_id, $2::int8 AS epoch, st.status, st.log_root,
    (SELECT count(*) FROM lg)::int AS log_entries,
    CASE WHEN st.status = 'verified' THEN (SELECT count(*) FROM mine)::int END AS seen,
    CASE WHEN st.status = 'verified' THEN (SELECT count(*) FROM mine WHERE id IN (SELECT id FROM lg))::int END AS
      seen_logged,
    CASE WHEN st.status = 'verified' THEN (SELECT count(*) FROM mine WHERE id NOT IN (SELECT id FROM lg))::int END AS
      seen_not_logged,
    CASE WHEN st.status = 'verified' THEN ((SELECT count(*) FROM lg) - (SELECT count(*) FROM lseen))::int END AS
      logged_not_seen,
    ${RECON_TOPICS.map(
      (t) =>
        `CASE WHEN st.status = 'verified' THEN tp.seen_${t} END AS seen_${t}, CASE ` +
        `WHEN st.status = 'verified' THEN tp.committed_${t} END AS committed_${t}`,
    ).join(',\n    ')}
  FROM st CROSS JOIN (SELECT ${topicSelect}) tp
  WHERE st.status IN ('verified', 'mismatch'))`;

const ROW_COLS = ['log_entries', 'seen', 'seen_logged', 'seen_not_logged', 'logged_not_seen', ...TOPIC_COLS];

/**
 * Recomputes the stored row of (agent, epoch) from the batch's current verdict and moves the
 * totals by the difference; removes the row when the batch has no verdict (any more). Returns
 * whether a row is stored after it. One statement, so the row and the totals never disagree.
 */
async function recompute(q: Queryable, agent: Uint8Array, epoch: bigint): Promise<boolean> {
  const sumOf = (sign: string, from: string) =>
    `SELECT ${from}.status, ${sign}1 AS agent_epochs, ${ROW_COLS.map(
      (c) => `${sign}COALESCE(${from}.${c}, 0)::int8 AS ${c}`,
    ).join(', ')} FROM ${from}`;
  // No FOR UPDATE on `old`: a row the same statement updates is skipped by a locking read, which
  // would leave the old figures in the totals. Verdicts come from the indexer's one serial queue.
  const r = await q.query<Row>(
    `WITH old AS (SELECT * FROM reconciliation WHERE agent_id = $1 AND epoch = $2::int8),
    st AS (SELECT status, log_root FROM batch WHERE agent_id = $1 AND epoch = $2::int8),
    ${BASE},
    ${FIGURES},
    del AS (DELETE FROM reconciliation r WHERE r.agent_id = $1 AND r.epoch = $2::int8 AND NOT EXISTS (SELECT 1 FROM fig)
      RETURNING 1),
    up AS (
      INSERT INTO reconciliation (agent_id, epoch, status, log_root, ${ROW_COLS.join(', ')}, computed_at)
      SELECT agent_id, epoch, status, log_root, ${ROW_COLS.join(', ')}, now() FROM fig
      ON CONFLICT (agent_id, epoch) DO UPDATE SET status = excluded.status, log_root = excluded.log_root,
        ${ROW_COLS.map((c) => `${c} = excluded.${c}`).join(', ')}, computed_at = excluded.computed_at
      RETURNING 1),
    tot AS (
      INSERT INTO reconciliation_total AS t (status, agent_epochs, ${ROW_COLS.join(', ')})
      SELECT status, sum(agent_epochs), ${ROW_COLS.map((c) => `sum(${c})`).join(', ')}
      FROM (${sumOf('-', 'old')} UNION ALL ${sumOf('', 'fig')}) d GROUP BY status ORDER BY status
      ON CONFLICT (status) DO UPDATE SET agent_epochs = t.agent_epochs + excluded.agent_epochs,
        ${ROW_COLS.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')})
    SELECT (SELECT count(*) FROM up)::int AS stored`,
    [agent, epoch.toString(), envEpoch(epoch)],
  );
  return Number(r[0]?.stored ?? 0) > 0;
}

/**
 * Brings the stored row of (agent, epoch) in line with its batch verdict: recomputed when the
 * verdict or the checked log root changed since it was stored (or it is missing), removed when
 * the batch has no verdict. When the agent's log became committed or stopped being committed,
 * the rows of the other senders in that log are recomputed too (their per-topic figures count
 * envelopes in some committed log). Cheap when nothing changed: one primary-key read.
 */
export async function refreshReconciliation(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
  status: string,
  logRoot?: Uint8Array | null,
): Promise<void> {
  check(agent, epoch);
  const [cur] = await q.query<Row>(
    `SELECT status::text AS status, log_root FROM reconciliation WHERE agent_id = $1 AND epoch = $2::int8`,
    [agent, epoch.toString()],
  );
  const sameRoot = (a: unknown, b: Uint8Array | null | undefined) =>
    a == null ? b == null : b != null && Buffer.from(u8(a)).equals(Buffer.from(b));
  const verdict = status === 'verified' || status === 'mismatch';
  if (!verdict && !cur) return;
  if (cur && cur.status === status && sameRoot(cur.log_root, logRoot)) return;
  await recompute(q, agent, epoch);
  if ((cur?.status === 'verified') === (status === 'verified')) return;
  const others = await q.query<Row>(
    `SELECT DISTINCT e.sender FROM epoch_log_entry l
    JOIN envelope e ON e.id = l.envelope_id AND e.epoch BETWEEN $3::int4 - 1 AND $3::int4 + 1
    JOIN reconciliation r ON r.agent_id = e.sender AND r.epoch = $2::int8 AND r.status = 'verified'
    WHERE l.agent_id = $1 AND l.epoch = $2::int8 AND e.sender <> $1`,
    [agent, epoch.toString(), envEpoch(epoch)],
  );
  for (const o of others) await recompute(q, u8(o.sender), epoch);
}

function topicsOf(r: Row): Record<ReconTopic, TopicFigures> {
  return Object.fromEntries(
    RECON_TOPICS.map((t) => [t, { seen: Number(r[`seen_${t}`] ?? 0), committed: Number(r[`committed_${t}`] ?? 0) }]),
  ) as Record<ReconTopic, TopicFigures>;
}

export function rowOf(r: Row): ReconciliationRow {
  const verified = r.status === 'verified' && r.computed_at != null;
  return {
    agent: u8(r.agent_id),
    epoch: BigInt(String(r.epoch)),
    status: r.status as ReconciliationRow['status'],
    logEntries: Number(r.log_entries ?? 0),
    seen: num(r.seen),
    seenLogged: num(r.seen_logged),
    seenNotLogged: num(r.seen_not_logged),
    loggedNotSeen: num(r.logged_not_seen),
    topics: verified ? topicsOf(r) : null,
    computedAt: (r.computed_at as Date | null) ?? null,
  };
}

export const SELECT_ROW =
  `agent_id, epoch::text AS epoch, status::text AS status, log_entries, seen, ` +
  `seen_logged, seen_not_logged, logged_not_seen, ${TOPIC_COLS.join(', ')}, computed_at`;

/** Totals over every stored agent-epoch: a read of the two-row totals table. */
export async function reconciliationTotals(q: Queryable): Promise<ReconciliationTotals> {
  const rows = await q.query<Row>(
    `SELECT status::text AS status, agent_epochs::text AS agent_epochs, ${ROW_COLS.map(
      (c) => `${c}::text AS ${c}`,
    ).join(', ')} FROM reconciliation_total`,
  );
  const v = rows.find((r) => r.status === 'verified');
  const m = rows.find((r) => r.status === 'mismatch');
  const n = (x: unknown) => Number(x ?? 0);
  return {
    verified: n(v?.agent_epochs),
    mismatch: n(m?.agent_epochs),
    logEntries: n(v?.log_entries),
    seen: n(v?.seen),
    seenLogged: n(v?.seen_logged),
    seenNotLogged: n(v?.seen_not_logged),
    loggedNotSeen: n(v?.logged_not_seen),
    topics: topicsOf(v ?? {}),
  };
}

/**
 * Agent-epochs, newest epoch first. One agent's: each of its batches (primary-key range) with its
 * stored row, so a batch still without a verdict is listed with its status and no figures.
 * Everyone's: the stored rows (by the epoch index).
 */
export async function listReconciliation(
  q: Queryable,
  p: { agent?: Uint8Array; limit?: number } = {},
): Promise<ReconciliationRow[]> {
  const limit = Math.max(1, Math.min(500, p.limit ?? 50));
  const rows = p.agent
    ? await q.query<Row>(
        `SELECT b.agent_id, b.epoch::text AS epoch, b.status::text AS status, ${SELECT_ROW.split(', ')
          .slice(3)
          .map((c) => `r.${c}`)
          .join(', ')}
        FROM batch b LEFT JOIN reconciliation r ON r.agent_id = b.agent_id AND r.epoch = b.epoch
        WHERE b.agent_id = $1 ORDER BY b.epoch DESC LIMIT $2`,
        [p.agent, limit],
      )
    : await q.query<Row>(`SELECT ${SELECT_ROW} FROM reconciliation ORDER BY epoch DESC, agent_id LIMIT $1`, [limit]);
  return rows.map(rowOf);
}

/** Most envelope ids listed per figure in a live read (the counts are exact either way). */
export const DETAIL_LIST_LIMIT = 500;

/** One agent-epoch read live by its keys, with the envelope ids behind each figure (module comment). */
export async function reconciliationDetail(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
): Promise<ReconciliationDetail> {
  check(agent, epoch);
  const args = [agent, epoch.toString(), envEpoch(epoch)];
  const [b] = await q.query<Row>(
    `SELECT status::text AS status, (SELECT count(*) FROM epoch_log_entry WHERE agent_id = $1 AND epoch = $2::int8)::int
      AS n
    FROM (SELECT 1) x LEFT JOIN batch ON agent_id = $1 AND epoch = $2::int8`,
    args.slice(0, 2),
  );
  const [s] = await q.query<Row>(
    `SELECT ${SELECT_ROW} FROM reconciliation WHERE agent_id = $1 AND epoch = $2::int8`,
    args.slice(0, 2),
  );
  const status = (b?.status as ReconciliationDetail['status']) ?? null;
  const out: ReconciliationDetail = {
    agent,
    epoch,
    status,
    logEntries: Number(b?.n ?? 0),
    stored: s ? rowOf(s) : null,
    live: null,
  };
  if (status !== 'verified') return out;
  const ref = (r: Row): EnvelopeRef => ({
    id: u8(r.id),
    msgType: num(r.msg_type),
    via: (r.source as string | null) ?? null,
    topic: (r.topic as string | null) ?? null,
  });
  const rows = await q.query<Row>(
    `WITH ${BASE},
    snl AS (SELECT 'snl' AS k, id, msg_type, source, topic FROM mine WHERE id NOT IN (SELECT id FROM lg) ORDER BY id
      LIMIT ${DETAIL_LIST_LIMIT}),
    lns AS (SELECT 'lns' AS k, lg.id, e.msg_type, e.source::text AS source, e.topic FROM lg
      LEFT JOIN envelope e ON e.id = lg.id AND e.epoch BETWEEN $3::int4 - 1 AND $3::int4 + 1
      WHERE lg.id NOT IN (SELECT id FROM lseen) ORDER BY lg.id LIMIT ${DETAIL_LIST_LIMIT}),
    snc AS (SELECT 'nc:' || bucket AS k, id, msg_type, source, topic FROM (SELECT s.*, row_number() OVER (PARTITION BY
      bucket ORDER BY id) AS rn
      FROM sent s WHERE bucket IS NOT NULL AND id NOT IN (SELECT id FROM cl)) x WHERE rn <= ${DETAIL_LIST_LIMIT}),
    cnt AS (SELECT 'count' AS k, NULL::bytea AS id, NULL::int AS msg_type, NULL::text AS source,
      json_build_object('seen', (SELECT count(*) FROM mine), 'seen_logged', (SELECT count(*) FROM mine WHERE id IN
        (SELECT id FROM lg)),
        'logged_seen', (SELECT count(*) FROM lseen),
        ${RECON_TOPICS.map(
          (t) =>
            `'seen_${t}', (SELECT count(*) FROM sent WHERE bucket = '${t}'), 'committed_${t}` +
            `', (SELECT count(*) FROM sent WHERE bucket = '${t}' AND id IN (SELECT id FROM cl))`,
        ).join(', ')})::text
          AS topic)
    SELECT * FROM snl UNION ALL SELECT * FROM lns UNION ALL SELECT * FROM snc UNION ALL SELECT * FROM cnt`,
    args,
  );
  const c = JSON.parse(String(rows.find((r) => r.k === 'count')?.topic ?? '{}')) as Record<string, number>;
  out.live = {
    seen: Number(c.seen ?? 0),
    seenLogged: Number(c.seen_logged ?? 0),
    seenNotLogged: Number(c.seen ?? 0) - Number(c.seen_logged ?? 0),
    seenNotLoggedIds: rows.filter((r) => r.k === 'snl').map(ref),
    loggedNotSeen: out.logEntries - Number(c.logged_seen ?? 0),
    loggedNotSeenIds: rows.filter((r) => r.k === 'lns').map(ref),
    topics: Object.fromEntries(
      RECON_TOPICS.map((t) => [
        t,
        {
          seen: Number(c[`seen_${t}`] ?? 0),
          committed: Number(c[`committed_${t}`] ?? 0),
          notCommittedIds: rows.filter((r) => r.k === `nc:${t}`).map(ref),
        },
      ]),
    ) as Record<ReconTopic, TopicFigures & { notCommittedIds: EnvelopeRef[] }>,
  };
  return out;
}

/** The gossip topic of each bucket (docs/protocol.md §9); `stream` is the direct stream protocol. */
export const RECON_TOPIC_NAMES: Record<ReconTopic, string> = {
  ...Object.fromEntries(Object.entries(TOPIC_OF).map(([k, v]) => [v, k])),
  stream: '/0x01/v1/envelope',
} as Record<ReconTopic, string>;
