/**
 * Loads `npm run bench:query`'s millions of envelopes the way a bulk import would: the envelope
 * rows with `COPY envelope FROM STDIN` (text format, one stream per slice, rows in time order so
 * seq follows time), and the rows the observer derives from them (agents, conversations, pairs,
 * feedback, notary bids, per-type counters, the stats rollups) set-based in SQL with the ingest statement's own
 * derivation (lib/store/envelopes/ingest.ts), over the templates' staged rows (lib/store/envelopes/stage.ts: what
 * the observer decodes from each payload) times the copies. Playing every envelope through the
 * store's ingest derives the same rows at about 1,000 envelopes/s: hours for 10M.
 *
 * A copy's payload is its template's, but its feedback and bid rows are derived as if the
 * payload named the copy's conversation and agents (as its envelope does), so a conversation's
 * page finds its feedback and an agent's reputation folds feedback about that agent.
 */
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { IngestItem } from '../lib/store';
import { encodeStage, epochOfFn, INGEST_SQL, STAGE_COLUMNS } from '../lib/store/testing';
import { plan, sliceItems, sqlCopy, type Templates } from './bench-query-data';

const INT8_MAX = (1n << 63n) - 1n;
const hex = (b: Uint8Array) => `\\\\x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`;
const text = (s: string | null) =>
  s === null ? '\\N' : s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const ENVELOPE_COLUMNS =
  'id, version, msg_type, sender, recipient, timestamp, block_ref, nonce, conversation_id, ' +
  'payload_hash, payload_len, signature, raw, source, topic, received_at, epoch';

/** One envelope as a line of COPY text. */
function line(it: IngestItem, epochOf: (ts: bigint) => number): string {
  const e = it.envelope;
  return `${[
    hex(it.id),
    e.version,
    e.msgType,
    hex(e.sender),
    hex(e.recipient),
    e.timestamp > INT8_MAX ? INT8_MAX : e.timestamp,
    e.blockRef,
    e.nonce,
    hex(e.conversationId),
    hex(e.payloadHash),
    e.payloadLen,
    hex(e.signature),
    hex(it.raw),
    it.source,
    text(it.topic ?? null),
    it.receivedAt.toISOString(),
    epochOf(e.timestamp),
  ].join('\t')}\n`;
}

/** The ingest statement's derivation (everything after its envelope INSERT) over the rows of `n`. */
function deriveSql(n: string): string {
  const from = INGEST_SQL.indexOf('ap AS (');
  const to = INGEST_SQL.lastIndexOf('SELECT false AS agent');
  if (from < 0 || to < 0) throw new Error('the ingest statement changed shape: update bench-query-load.ts');
  return `WITH n AS MATERIALIZED (${n}), ${INGEST_SQL.slice(from, to)} SELECT count(*)::int AS n FROM n`;
}

/** The staged rows of copies $1..$2 of the templates, as the observer would have staged them. */
function copiesSql(epochSeconds: number): string {
  const ts = '(b.start_us + t.ts)';
  return `SELECT ${sqlCopy.id('t.id', 'b.c')} AS id, t.msg_type, ${sqlCopy.agent('t.sender', 'b.c')} AS sender,
    ${sqlCopy.agent('t.recipient', 'b.c')} AS recipient, ${ts} AS ts,
      ${sqlCopy.conversation('t.conversation_id', 'b.c')} AS conversation_id,
    timestamptz 'epoch' + (${ts} / 1000 + 5) * interval '1 millisecond' AS received_at, (${ts} /
      ${epochSeconds * 1_000_000})::int4 AS epoch,
    t.direct, t.tbit, ${sqlCopy.conversation('t.fb_conv', 'b.c')} AS fb_conv, ${sqlCopy.agent('t.fb_target', 'b.c')} AS
      fb_target,
    t.fb_score, t.fb_outcome, t.fb_dispute, t.fb_role, ${sqlCopy.conversation('t.bid_conv', 'b.c')} AS bid_conv,
      t.bid_type, t.bid_terms,
    t.deal_price, t.deal_service, t.deal_token
  FROM bench_copy b CROSS JOIN bench_tpl t WHERE b.c BETWEEN $1 AND $2`;
}

async function copyIn(c: pg.Client, sql: string, chunks: Iterable<string | Buffer>): Promise<void> {
  const stream = c.query(copyFrom(sql));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (const chunk of chunks) if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
  stream.end();
  await done;
}

/**
 * Loads `rows` envelopes (whole copies) ending at `endUs` into the migrated database at `url`;
 * the envelope partitions must exist. Returns the number of envelopes loaded.
 */
export async function loadBench(
  url: string,
  t: Templates,
  rows: number,
  days: number,
  endUs: bigint,
  epochSeconds: number,
  log: (s: string) => void,
): Promise<number> {
  const epochOf = epochOfFn(epochSeconds);
  const slices = plan(t, rows, days, endUs);
  const total = slices.reduce((s, x) => s + x.rows, 0);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // Loading only: no fsync wait per statement.
    await c.query('SET synchronous_commit = off');
    await c.query(`CREATE UNLOGGED TABLE bench_tpl (${STAGE_COLUMNS.map(([n, ty]) => `${n} ${ty}`).join(', ')})`);
    await copyIn(c, 'COPY bench_tpl FROM STDIN WITH (FORMAT binary)', [encodeStage(t.items, epochOf)]);
    await c.query('CREATE UNLOGGED TABLE bench_copy (c int4 PRIMARY KEY, start_us int8 NOT NULL)');
    const copies = slices.flatMap((s) => s.copies);
    for (let i = 0; i < copies.length; i += 10_000) {
      const part = copies.slice(i, i + 10_000);
      await c.query('INSERT INTO bench_copy SELECT * FROM unnest($1::int4[], $2::int8[])', [
        part.map((x) => x.c),
        part.map((x) => x.startUs.toString()),
      ]);
    }

    const t0 = performance.now();
    let done = 0,
      mark = 1_000_000;
    for (const slice of slices) {
      const items = sliceItems(t, slice);
      await copyIn(
        c,
        `COPY envelope (${ENVELOPE_COLUMNS}) FROM STDIN`,
        (function* () {
          for (let i = 0; i < items.length; i += 2_000) {
            let s = '';
            for (let j = i; j < Math.min(items.length, i + 2_000); j++) s += line(items[j], epochOf);
            yield s;
          }
        })(),
      );
      done += items.length;
      if (done >= mark || done === total) {
        log(
          `  ${done.toLocaleString('en-US')} envelopes copied, ${Math.round(
            done / ((performance.now() - t0) / 1000),
          ).toLocaleString('en-US')}/s overall`,
        );
        mark += 1_000_000;
      }
    }
    const copySec = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    const derive = deriveSql(copiesSql(epochSeconds));
    // About 500k staged rows per statement: the derivation merges (ON CONFLICT) across statements.
    const step = Math.max(1, Math.floor(500_000 / t.items.length));
    for (let first = 0; first < copies.length; first += step)
      await c.query(derive, [first, Math.min(copies.length, first + step) - 1]);
    const deriveSec = (performance.now() - t1) / 1000;

    // The SQL copy of copyOf must name the rows the COPY stored: check the first and the last copy.
    for (const k of [0, copies.length - 1]) {
      const [{ missing }] = (
        await c.query(
          `SELECT count(*)::int AS missing FROM (${copiesSql(epochSeconds)}) v
        WHERE NOT EXISTS (SELECT 1 FROM envelope e WHERE e.id = v.id AND e.epoch = v.epoch AND e.sender = v.sender
          AND e.recipient = v.recipient AND e.conversation_id = v.conversation_id AND e.timestamp = v.ts AND
            e.received_at = v.received_at)`,
          [k, k],
        )
      ).rows;
      if (missing !== 0)
        throw new Error(`derived rows of copy ${k} do not match the copied envelopes (${missing} differ)`);
    }
    await c.query('DROP TABLE bench_tpl, bench_copy');
    log(
      `loaded ${total.toLocaleString('en-US')} envelopes: COPY ${copySec.toFixed(0)} s (${Math.round(
        total / copySec,
      ).toLocaleString('en-US')} rows/s), derived rows ${deriveSec.toFixed(0)} s; ` +
        `${Math.round(total / (copySec + deriveSec)).toLocaleString('en-US')} rows/s overall`,
    );
    return total;
  } finally {
    await c.end();
  }
}
