/**
 * Signals of possible collusion per agent, read from what the observer stored. None of them proves
 * anything; each points at evidence a person can open and judge:
 *
 * - **Reciprocal feedback**: A rated B and B rated A. Honest deals produce it too (both parties
 *   rate each other after a verdict), so each feedback row is marked backed when its conversation
 *   is a deal (outcome agreed or disputed: lib/protocol/conversation-state.ts, where FEEDBACK alone is
 *   no deal) that the rater and the target both
 *   took part in and at least one of them negotiated. A pair counts as reciprocal without a deal
 *   when each side gave the other feedback that no such deal backs. The timing figure is, for each
 *   feedback of a reciprocal pair, the time to the nearest feedback in the other direction; an
 *   agent's figure is the lower median of those over all its reciprocal pairs.
 * - **Counterparty concentration**: deals per counterparty, as lib/store/envelopes/counterparties.ts counts
 *   them (`conversation.negotiators`), each counterparty's share of the agent's deals and the
 *   Herfindahl–Hirschman index (the sum of the squared shares). Unknown below MIN_DEALS deals: with
 *   one or two deals every share is large whatever the agent does.
 * - **Notary reuse**: the notary of a conversation is the recipient of its NOTARIZE_ASSIGN (the
 *   negotiations dataset's rule, lib/export/negotiation.ts). For every pair of negotiators, how
 *   many of their conversations with a notary had the same one. A broadcast assignment, two
 *   assignments naming different notaries, or a conversation without exactly two negotiators
 *   leaves the notary or the pair unknown: those conversations are counted apart, never guessed.
 * - **Feedback from agents with no deals**: feedback an agent received from raters that are not a
 *   negotiator of any deal the observatory has stored (all time, not only the window).
 * - **Stake**: each listed agent's stake row as the chain indexer stored it, amount exact.
 *
 * Cost: every signal reads at most `window` rows of its source through an index, the latest
 * FEEDBACK and NOTARIZE_ASSIGN envelopes stored, by envelope (msg_type, seq), and the latest
 * conversations by conversation (last_seen), then probes feedback and conversation by primary key
 * row by row; the "no deals" check is one participants-GIN probe per distinct rater that stops at
 * the first deal. So a read costs O(window) whatever the database holds (about 1 s at the default
 * 5,000 rows on a loaded 2-core machine, docs/app.md "Collusion signals"), and the answer says how
 * much of the history the window covered.
 */
import { MsgType } from '../../protocol/types';
import type { Queryable } from '../engine/db';

/** Fewer deals than this and the concentration figures are unknown (every share is large). */
export const MIN_DEALS = 3;
export const DEFAULT_WINDOW = 5_000;
export const MAX_WINDOW = 100_000;

export interface CollusionParams {
  /** Rows of each source read, newest first (default 5,000, at most 100,000). */
  window?: number;
  /** Rows per ranked signal (default 20). */
  limit?: number;
  /** Only rows about this agent (32 bytes). */
  agent?: Uint8Array;
}

/** How much of a source the read covered. */
export interface WindowRead {
  limit: number;
  read: number;
  /** More rows exist than the window read: the figures cover the newest `read` only. */
  truncated: boolean;
  /** Envelope timestamp (µs) or last activity (ms, conversations) of the oldest row read, or null when none. */
  oldest: bigint | null;
}

export interface ReciprocalPairRow {
  counterpart: Uint8Array;
  given: number;
  received: number;
  givenWithoutDeal: number;
  receivedWithoutDeal: number;
  latestGiven: Uint8Array;
  latestReceived: Uint8Array;
}
export interface ReciprocalRow {
  agent: Uint8Array;
  counterparts: number;
  counterpartsWithoutDeal: number;
  given: number;
  received: number;
  givenScoreSum: number;
  receivedScoreSum: number;
  /** Lower median of the gaps (µs) between the two directions. */
  medianGapUs: bigint | null;
  pairs: ReciprocalPairRow[];
}

export interface ConcentrationRow {
  agent: Uint8Array;
  deals: number;
  counterparties: number;
  /** Sum of squared deal counts per counterparty: HHI = squares / deals². */
  squares: number;
  topCounterparty: Uint8Array;
  topDeals: number;
  /** The latest deal with the top counterparty. */
  latestDeal: Uint8Array;
}

export interface NotaryReuseRow {
  /** The two negotiators, in byte order. */
  agents: [Uint8Array, Uint8Array];
  /** Conversations of the pair with a known notary. */
  assigned: number;
  distinctNotaries: number;
  notary: Uint8Array;
  /** Of `assigned`, how many had `notary`. */
  sameNotary: number;
  /** Up to 3 of those conversations, latest first. */
  conversations: Uint8Array[];
}

export interface DeallessRow {
  agent: Uint8Array;
  received: number;
  fromDealless: number;
  raters: Uint8Array[];
  raterCount: number;
  scoreSum: number;
  /** Up to 3 such feedback envelopes, latest first. */
  latest: Uint8Array[];
}

export interface CollusionRows {
  windows: { feedback: WindowRead; conversations: WindowRead; assignments: WindowRead };
  reciprocal: ReciprocalRow[];
  concentration: ConcentrationRow[];
  notaryReuse: NotaryReuseRow[];
  /** Conversations in the window whose notary (broadcast or several) or pair (not two negotiators) is unknown. */
  notaryUnknown: { notary: number; pair: number };
  dealless: DeallessRow[];
  stakes: Array<{ agent: Uint8Array; amount: bigint; status: string }>;
}

const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
/** A comma-joined list of hex ids (arrays of bytea travel as text on both backends). */
const hexList = (v: unknown): Uint8Array[] =>
  typeof v === 'string' && v ? v.split(',').map((h) => Uint8Array.from(Buffer.from(h, 'hex'))) : [];
const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));
const DEAL = `('agreed', 'disputed')`;

/**
 * The latest `$1` envelopes of one type the observer stored, newest first by arrival (`seq`),
 * through the envelope (msg_type, seq, epoch) index the feed reads too. Arrival, not the signed
 * timestamp: a sender chooses its timestamp, so a window by signed time could be pushed aside by
 * envelopes dated in the future.
 */
const latestOfType = (type: number, cols: string, limit = '$1') =>
  `SELECT ${cols} FROM envelope WHERE msg_type = ${type} ORDER BY seq DESC LIMIT ${limit}`;

/**
 * One row of `table` by primary key, as a LATERAL subquery the planner keeps as a per-row index
 * probe (LIMIT 1 stops it from turning the lookup into a hash join over the whole table, which it
 * prefers when the window is a large share of a small table and which would not stay bounded).
 */
const byKey = (cols: string, table: string, key: string, value: string) =>
  `LATERAL (SELECT ${cols} FROM ${table} WHERE ${key} = ${value} LIMIT 1)`;

/** The newest FEEDBACK rows, by the envelope index and one feedback primary-key probe each. */
const FEEDBACK_ROWS = `SELECT f.envelope_id, f.conversation_id, f.from_agent, f.target_agent, f.score, f.timestamp AS ts
  FROM (${latestOfType(MsgType.FEEDBACK, 'id')}) e
  CROSS JOIN ${byKey('*', 'feedback', 'envelope_id', 'e.id')} f`;

/** The feedback window, each row marked backed by a deal both sides took part in. */
const FEEDBACK_WINDOW = `fw AS MATERIALIZED (
  SELECT f.envelope_id, f.from_agent, f.target_agent, f.score, f.ts,
    (c.outcome IN ${DEAL} AND (c.negotiators @> ARRAY[f.from_agent] OR c.negotiators @> ARRAY[f.target_agent])
      AND c.participants @> ARRAY[f.from_agent, f.target_agent]) IS TRUE AS backed
  FROM (${FEEDBACK_ROWS}) f
  LEFT JOIN ${byKey('outcome, negotiators, participants', 'conversation', 'id', 'f.conversation_id')} c ON true
)`;

async function windowOf(q: Queryable, sql: string, limit: number): Promise<WindowRead> {
  // One row more than the window says whether anything older was left out.
  const [r] = await q.query<Record<string, unknown>>(
    `SELECT count(*)::int AS n, min(k)::text AS oldest, min(k) FILTER (WHERE rn <= $1)::text AS oldest_in
    FROM (SELECT k, row_number() OVER () AS rn FROM (${sql}) s) t`,
    [limit],
  );
  const n = Number(r.n);
  return { limit, read: Math.min(n, limit), truncated: n > limit, oldest: big(n > limit ? r.oldest_in : r.oldest) };
}

async function reciprocal(
  q: Queryable,
  window: number,
  agent: Uint8Array | null,
  limit: number,
): Promise<ReciprocalRow[]> {
  const rows = await q.query<Record<string, unknown>>(
    `WITH ${FEEDBACK_WINDOW}, d AS (
    SELECT from_agent AS a, target_agent AS b, count(*)::int AS n, count(*) FILTER (WHERE NOT backed)::int AS unbacked,
      sum(score)::int AS total, (array_agg(envelope_id ORDER BY ts DESC, envelope_id DESC))[1] AS latest
    FROM fw WHERE from_agent <> target_agent GROUP BY 1, 2
  ), r AS (
    SELECT x.a, x.b, x.n AS given, y.n AS received, x.unbacked AS given_unbacked, y.unbacked AS received_unbacked,
      x.total AS given_total, y.total AS received_total, x.latest AS latest_given, y.latest AS latest_received
    FROM d x JOIN d y ON y.a = x.b AND y.b = x.a
  ), p AS (
    SELECT LEAST(f.from_agent, f.target_agent) AS lo, GREATEST(f.from_agent, f.target_agent) AS hi, f.from_agent <
      f.target_agent AS up, f.ts
    FROM fw f JOIN r ON r.a = f.from_agent AND r.b = f.target_agent
  ), g AS (
    -- LEAST skips the side with no feedback before (or after) this one.
    SELECT lo, hi, CASE WHEN up THEN LEAST(ts - prev_down, next_down - ts) ELSE LEAST(ts - prev_up, next_up - ts) END AS
      gap FROM (
      SELECT lo, hi, up, ts,
        max(ts) FILTER (WHERE up) OVER upto AS prev_up, max(ts) FILTER (WHERE NOT up) OVER upto AS prev_down,
        min(ts) FILTER (WHERE up) OVER from_here AS next_up, min(ts) FILTER (WHERE NOT up) OVER from_here AS next_down
      FROM p
      WINDOW upto AS (PARTITION BY lo, hi ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
        from_here AS (PARTITION BY lo, hi ORDER BY ts RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)
    ) x
  ), med AS (
    SELECT agent, percentile_disc(0.5) WITHIN GROUP (ORDER BY gap) AS gap
    FROM (SELECT lo AS agent, gap FROM g UNION ALL SELECT hi, gap FROM g) y GROUP BY agent
  ), ag AS (
    SELECT a, count(*)::int AS counterparts, count(*) FILTER (WHERE given_unbacked > 0 AND received_unbacked > 0)::int
      AS without_deal,
      sum(given)::int AS given, sum(received)::int AS received, sum(given_total)::int AS given_total,
        sum(received_total)::int AS received_total
    FROM r GROUP BY a
  ), top AS (
    SELECT ag.*, med.gap FROM ag LEFT JOIN med ON med.agent = ag.a
    WHERE $2::bytea IS NULL OR ag.a = $2::bytea
    ORDER BY without_deal DESC, counterparts DESC, given + received DESC, ag.a LIMIT $3
  )
  SELECT top.a, top.counterparts, top.without_deal, top.given, top.received, top.given_total, top.received_total,
    top.gap::text AS gap,
    r.b, r.given AS p_given, r.received AS p_received, r.given_unbacked, r.received_unbacked, r.latest_given,
      r.latest_received
  FROM top JOIN r ON r.a = top.a
  ORDER BY top.without_deal DESC, top.counterparts DESC, top.given + top.received DESC, top.a,
    LEAST(r.given_unbacked, r.received_unbacked) DESC, r.given + r.received DESC, r.b`,
    [window, agent, limit],
  );
  const out: ReciprocalRow[] = [];
  for (const r of rows) {
    const a = u8(r.a);
    let row = out[out.length - 1];
    if (!row || Buffer.compare(row.agent, a) !== 0) {
      row = {
        agent: a,
        counterparts: Number(r.counterparts),
        counterpartsWithoutDeal: Number(r.without_deal),
        given: Number(r.given),
        received: Number(r.received),
        givenScoreSum: Number(r.given_total),
        receivedScoreSum: Number(r.received_total),
        medianGapUs: big(r.gap),
        pairs: [],
      };
      out.push(row);
    }
    row.pairs.push({
      counterpart: u8(r.b),
      given: Number(r.p_given),
      received: Number(r.p_received),
      givenWithoutDeal: Number(r.given_unbacked),
      receivedWithoutDeal: Number(r.received_unbacked),
      latestGiven: u8(r.latest_given),
      latestReceived: u8(r.latest_received),
    });
  }
  return out;
}

/** The newest `$1` conversations by last activity (the conversation last_seen index). */
const CONVERSATION_WINDOW =
  `SELECT id, negotiators, outcome, last_ts, last_seen FROM ` +
  `conversation ORDER BY last_seen DESC, id DESC LIMIT $1`;

async function concentration(
  q: Queryable,
  window: number,
  agent: Uint8Array | null,
  limit: number,
): Promise<ConcentrationRow[]> {
  // An agent that negotiated only with itself is its own counterparty, as in counterparties.ts.
  const rows = await q.query<Record<string, unknown>>(
    `WITH cw AS MATERIALIZED (${CONVERSATION_WINDOW}), deals AS (
    SELECT me.agent, o.other, count(*)::int AS deals, (array_agg(cw.id ORDER BY cw.last_ts DESC, cw.id DESC))[1] AS
      latest
    FROM cw CROSS JOIN LATERAL unnest(cw.negotiators) AS me(agent) CROSS JOIN LATERAL unnest(cw.negotiators) AS o(other)
    WHERE cw.outcome IN ${DEAL} AND (o.other <> me.agent OR cardinality(cw.negotiators) = 1)
    GROUP BY 1, 2
  ), ag AS (
    SELECT agent, sum(deals)::int AS total, count(*)::int AS counterparties, sum(deals::int8 * deals)::int8 AS squares
      FROM deals GROUP BY agent
  ), top AS (
    SELECT * FROM ag WHERE $2::bytea IS NULL OR agent = $2::bytea
    ORDER BY (total >= ${MIN_DEALS}) DESC, squares::numeric / (total::numeric * total) DESC, total DESC, agent LIMIT $3
  )
  SELECT DISTINCT ON (top.agent) top.agent, top.total, top.counterparties, top.squares::text AS squares, d.other,
    d.deals, d.latest
  FROM top JOIN deals d ON d.agent = top.agent
  ORDER BY top.agent, d.deals DESC, d.other`,
    [window, agent, limit],
  );
  const out = rows.map(
    (r): ConcentrationRow => ({
      agent: u8(r.agent),
      deals: Number(r.total),
      counterparties: Number(r.counterparties),
      squares: Number(r.squares),
      topCounterparty: u8(r.other),
      topDeals: Number(r.deals),
      latestDeal: u8(r.latest),
    }),
  );
  // Ranked as the SQL ranks them: known figures (enough deals) first.
  const cmp = (a: bigint, b: bigint) => (a > b ? 1 : a < b ? -1 : 0);
  return out.sort(
    (x, y) =>
      Number(y.deals >= MIN_DEALS) - Number(x.deals >= MIN_DEALS) ||
      cmp(BigInt(y.squares) * BigInt(x.deals) ** 2n, BigInt(x.squares) * BigInt(y.deals) ** 2n) ||
      y.deals - x.deals ||
      Buffer.compare(x.agent, y.agent),
  );
}

async function notaryReuse(
  q: Queryable,
  window: number,
  agent: Uint8Array | null,
  limit: number,
): Promise<{ rows: NotaryReuseRow[]; unknown: { notary: number; pair: number } }> {
  const rows = await q.query<Record<string, unknown>>(
    `WITH aw AS MATERIALIZED
      (${latestOfType(MsgType.NOTARIZE_ASSIGN, 'id, conversation_id, recipient, timestamp AS ts')}), pc AS (
    SELECT conversation_id, count(DISTINCT recipient)::int AS notaries, (array_agg(recipient ORDER BY recipient))[1] AS
      notary,
      bool_or(recipient = decode(repeat('00', 32), 'hex')) AS broadcast, max(ts) AS ts
    FROM aw GROUP BY conversation_id
  ), j AS MATERIALIZED (
    SELECT pc.*, c.negotiators, (NOT pc.broadcast AND pc.notaries = 1) AS notary_known,
      COALESCE(cardinality(c.negotiators) = 2, false) AS pair_known
    FROM pc LEFT JOIN ${byKey('negotiators', 'conversation', 'id', 'pc.conversation_id')} c ON true
  ), per AS (
    SELECT negotiators[1] AS lo, negotiators[2] AS hi, notary, count(*)::int AS n,
      array_to_string((array_agg(encode(conversation_id, 'hex') ORDER BY ts DESC, conversation_id DESC))[1:3], ',') AS
        convs
    FROM j WHERE notary_known AND pair_known GROUP BY 1, 2, 3
  ), pair AS (
    SELECT lo, hi, sum(n)::int AS assigned, count(*)::int AS distinct_notaries FROM per GROUP BY 1, 2
  ), ranked AS (
    SELECT DISTINCT ON (pair.lo, pair.hi) pair.*, per.notary, per.n, per.convs
    FROM pair JOIN per ON per.lo = pair.lo AND per.hi = pair.hi
    WHERE pair.assigned >= 2
    ORDER BY pair.lo, pair.hi, per.n DESC, per.notary
  )
  SELECT 'row' AS kind, lo, hi, assigned, distinct_notaries, notary, n, convs, 0 AS unknown_notary, 0 AS unknown_pair
    FROM (
    SELECT * FROM ranked WHERE $2::bytea IS NULL OR $2::bytea IN (lo, hi, notary)
    ORDER BY n DESC, n::numeric / assigned DESC, assigned DESC, lo, hi LIMIT $3
  ) t
  UNION ALL SELECT 'unknown', NULL, NULL, 0, 0, NULL, 0, NULL,
    (count(*) FILTER (WHERE NOT notary_known))::int, (count(*) FILTER (WHERE notary_known AND NOT pair_known))::int FROM
      j`,
    [window, agent, limit],
  );
  const out: NotaryReuseRow[] = [];
  let unknown = { notary: 0, pair: 0 };
  for (const r of rows) {
    if (r.kind === 'unknown') {
      unknown = { notary: Number(r.unknown_notary), pair: Number(r.unknown_pair) };
      continue;
    }
    out.push({
      agents: [u8(r.lo), u8(r.hi)],
      assigned: Number(r.assigned),
      distinctNotaries: Number(r.distinct_notaries),
      notary: u8(r.notary),
      sameNotary: Number(r.n),
      conversations: hexList(r.convs),
    });
  }
  return { rows: out, unknown };
}

async function dealless(q: Queryable, window: number, agent: Uint8Array | null, limit: number): Promise<DeallessRow[]> {
  // EXISTS in the select list runs once per distinct rater and stops at its first deal.
  const rows = await q.query<Record<string, unknown>>(
    `WITH fw AS MATERIALIZED (${FEEDBACK_ROWS}), raters AS MATERIALIZED (
    SELECT a, EXISTS (SELECT 1 FROM conversation c WHERE c.participants @> ARRAY[a] AND c.negotiators @> ARRAY[a] AND
      c.outcome IN ${DEAL}) AS dealt
    FROM (SELECT DISTINCT from_agent AS a FROM fw) r
  ), t AS (
    SELECT f.target_agent AS agent, count(*)::int AS received, (count(*) FILTER (WHERE NOT r.dealt))::int AS
      from_dealless,
      (count(DISTINCT f.from_agent) FILTER (WHERE NOT r.dealt))::int AS rater_count,
      COALESCE(sum(f.score) FILTER (WHERE NOT r.dealt), 0)::int AS total,
      array_to_string((array_agg(DISTINCT encode(f.from_agent, 'hex')) FILTER (WHERE NOT r.dealt))[1:5], ',') AS raters,
      array_to_string((array_agg(encode(f.envelope_id, 'hex') ORDER BY f.ts DESC, f.envelope_id DESC) FILTER (WHERE NOT
        r.dealt))[1:3], ',') AS latest
    FROM fw f JOIN raters r ON r.a = f.from_agent WHERE f.from_agent <> f.target_agent GROUP BY 1
  )
  SELECT * FROM t WHERE from_dealless > 0 AND ($2::bytea IS NULL OR agent = $2::bytea)
  ORDER BY from_dealless DESC, rater_count DESC, agent LIMIT $3`,
    [window, agent, limit],
  );
  return rows.map((r) => ({
    agent: u8(r.agent),
    received: Number(r.received),
    fromDealless: Number(r.from_dealless),
    raters: hexList(r.raters),
    raterCount: Number(r.rater_count),
    scoreSum: Number(r.total),
    latest: hexList(r.latest),
  }));
}

/** Every signal, ranked, with the stake of each agent listed and the windows read. */
export async function collusionSignals(q: Queryable, p: CollusionParams = {}): Promise<CollusionRows> {
  const window = p.window ?? DEFAULT_WINDOW;
  const limit = p.limit ?? 20;
  if (!Number.isInteger(window) || window < 1 || window > MAX_WINDOW)
    throw new RangeError(`window must be an integer in 1..${MAX_WINDOW}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
    throw new RangeError('limit must be an integer in 1..1000');
  if (p.agent !== undefined && (!(p.agent instanceof Uint8Array) || p.agent.length !== 32))
    throw new TypeError('agent must be 32 bytes');
  const agent = p.agent ?? null;
  // In sequence: PGlite runs one statement at a time anyway, and a page view should not take
  // several pooled connections of a Postgres server at once.
  const feedbackW = await windowOf(q, latestOfType(MsgType.FEEDBACK, 'timestamp AS k', '$1 + 1'), window);
  const conversationsW = await windowOf(
    q,
    `SELECT (extract(epoch FROM last_seen) * 1000)::int8 AS k FROM ` +
      `conversation ORDER BY last_seen DESC, id DESC LIMIT $1 + 1`,
    window,
  );
  const assignmentsW = await windowOf(q, latestOfType(MsgType.NOTARIZE_ASSIGN, 'timestamp AS k', '$1 + 1'), window);
  const rec = await reciprocal(q, window, agent, limit);
  const conc = await concentration(q, window, agent, limit);
  const notary = await notaryReuse(q, window, agent, limit);
  const dl = await dealless(q, window, agent, limit);
  const ids = new Map<string, Uint8Array>();
  const note = (a: Uint8Array) => ids.set(Buffer.from(a).toString('hex'), a);
  rec.forEach((r) => note(r.agent));
  conc.forEach((r) => note(r.agent));
  notary.rows.forEach((r) => {
    note(r.agents[0]);
    note(r.agents[1]);
  });
  dl.forEach((r) => note(r.agent));
  const stakes =
    ids.size === 0
      ? []
      : await q.query<Record<string, unknown>>(
          `SELECT agent_id, amount::text AS amount, status FROM stake WHERE agent_id = ANY($1::bytea[])`,
          [[...ids.values()]],
        );
  return {
    windows: { feedback: feedbackW, conversations: conversationsW, assignments: assignmentsW },
    reciprocal: rec,
    concentration: conc,
    notaryReuse: notary.rows,
    notaryUnknown: notary.unknown,
    dealless: dl,
    stakes: stakes.map((r) => ({ agent: u8(r.agent_id), amount: BigInt(String(r.amount)), status: String(r.status) })),
  };
}
