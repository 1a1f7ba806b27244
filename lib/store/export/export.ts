/**
 * Every SQL statement of the datasets export (docs/datasets.md): row counts and ordered row
 * streams of the eight exported tables, plus what a release manifest needs (batch roots, signer
 * keys, uploaded logs); the negotiations table's on-chain columns come from haggle.ts. lib/export
 * turns these database rows into dataset rows.
 *
 * Streams: on Postgres one server-side cursor per export (DECLARE … FETCH in a transaction on a
 * dedicated pool connection), so the query runs once and rows arrive in pages; on PGlite, which
 * has one connection shared with ingest, pages by key (`(k1, k2) > (last…) ORDER BY k LIMIT n`) so
 * an export never holds the connection between pages. Either way the caller's AbortSignal ends
 * the read: the cursor's transaction is rolled back (the query is gone from pg_stat_activity), or
 * no further page is asked for.
 */
import { type HaggleNegotiationRow, onChainNegotiationsOf } from '../chain/haggle';
import type { Db, Queryable } from '../engine/db';
import { type EnvelopeCsvCopy, envelopeCsvCopy, envelopeParquetCopy } from './export-copy';
import { type ExportFilter, epochBounds } from './export-filter';

export type { ExportFilter };

export type ExportStoreTable =
  | 'envelopes'
  | 'conversations'
  | 'offers'
  | 'feedback'
  | 'batches'
  | 'challenges'
  | 'reconciliation'
  | 'disputes';
export type DbRow = Record<string, unknown>;

/**
 * Envelope columns the export reads: the header fields are decoded from `raw` in lib/export
 * (exact, where the int8 `timestamp` column saturates), so only what is not in the bytes travels;
 * fewer bytea columns to parse is most of the read's cost.
 */
const ENVELOPE_SELECT = `e.id, e.seq::text AS seq, e.raw, e.source::text AS source, e.topic,
  (extract(epoch from e.received_at) * 1000000)::int8::text AS received_us, e.epoch`;

/**
 * The int8 `timestamp` columns saturate here: a sender's u64 above it is exact only in the
 * envelope's bytes, so rows at this value also read `raw` (only those rows: a subquery per row).
 */
const INT8_MAX = '9223372036854775807';

interface Plan {
  select: string;
  from: string;
  where: string[];
  args: unknown[];
  key: { expr: string; alias: string; cast: string }[];
}

/** The payload's first four bytes inside `raw` (docs/protocol.md §2: payload, then the 66-byte signature item). */
const HINT = `substring(e.raw from length(e.raw) - 65 - e.payload_len for 4)`;

function timeWhere(p: Plan, col: string, f: ExportFilter): void {
  if (f.fromUs !== undefined) {
    p.args.push(f.fromUs.toString());
    p.where.push(`${col} >= $${p.args.length}::int8`);
  }
  if (f.toUs !== undefined) {
    p.args.push(f.toUs.toString());
    p.where.push(`${col} < $${p.args.length}::int8`);
  }
}

/** The same window on the envelope table's partition key `epoch` (partition pruning). */
function epochWhere(p: Plan, w: string[], col: string, f: ExportFilter, epochSeconds: number): void {
  const b = epochBounds(f, epochSeconds);
  if (b.from !== undefined) {
    p.args.push(b.from);
    w.push(`${col} >= $${p.args.length}::int4`);
  }
  if (b.to !== undefined) {
    p.args.push(b.to);
    w.push(`${col} <= $${p.args.length}::int4`);
  }
}

/** Only envelopes stored by the filter's snapshot (`maxSeq`: a release reads one state of the store). */
function seqWhere(p: Plan, w: string[], col: string, f: ExportFilter): void {
  if (f.maxSeq === undefined) return;
  p.args.push(f.maxSeq.toString());
  w.push(`${col} <= $${p.args.length}::int8`);
}

/** Conversations that are negotiations (a PROPOSE) started in the filter's range, by or with the agent. */
function negotiationSet(p: Plan, f: ExportFilter, epochSeconds: number): string {
  const w = ['s.msg_type = 3'];
  if (f.fromUs !== undefined) {
    p.args.push(f.fromUs.toString());
    w.push(`s.timestamp >= $${p.args.length}::int8`);
  }
  if (f.toUs !== undefined) {
    p.args.push(f.toUs.toString());
    w.push(`s.timestamp < $${p.args.length}::int8`);
  }
  epochWhere(p, w, 's.epoch', f, epochSeconds);
  if (f.agent) {
    p.args.push(f.agent);
    w.push(`(s.sender = $${p.args.length} OR s.recipient = $${p.args.length})`);
  }
  seqWhere(p, w, 's.seq', f);
  return `e.conversation_id IN (SELECT s.conversation_id FROM envelope s WHERE ${w.join(' AND ')})`;
}

function plan(table: ExportStoreTable, f: ExportFilter, epochSeconds: number): Plan {
  const p: Plan = { select: '', from: '', where: [], args: [], key: [] };
  const epochUs = `${BigInt(epochSeconds) * 1_000_000n}`;
  switch (table) {
    case 'envelopes':
      Object.assign(p, {
        select: ENVELOPE_SELECT,
        from: 'envelope e',
        key: [{ expr: 'e.seq', alias: 'seq', cast: 'int8' }],
      });
      timeWhere(p, 'e.timestamp', f);
      epochWhere(p, p.where, 'e.epoch', f, epochSeconds);
      if (f.agent) {
        p.args.push(f.agent);
        p.where.push(`(e.sender = $${p.args.length} OR e.recipient = $${p.args.length})`);
      }
      if (f.types?.length) {
        p.args.push(f.types);
        p.where.push(`e.msg_type = ANY($${p.args.length}::int[])`);
      }
      seqWhere(p, p.where, 'e.seq', f);
      break;
    case 'conversations': // every envelope of the selected negotiations, grouped by conversation, in protocol order
    case 'offers':
      // conversations: the id travels too, for the page's on-chain read (exportNegotiationScan).
      Object.assign(p, {
        select: table === 'conversations' ? `${ENVELOPE_SELECT}, e.conversation_id` : ENVELOPE_SELECT,
        from: 'envelope e',
        key: [
          { expr: 'e.conversation_id', alias: 'conversation_id', cast: 'bytea' },
          { expr: 'e.timestamp', alias: 'ts', cast: 'int8' },
          { expr: 'e.nonce', alias: 'nonce', cast: 'numeric' },
          { expr: 'e.seq', alias: 'seq', cast: 'int8' },
        ],
      });
      p.where.push(negotiationSet(p, f, epochSeconds));
      // offers: the negotiation messages (PROPOSE … REJECT), so each offer's relative time spans
      // the whole negotiation; the count keeps only the NEG1 offers (exportCount).
      if (table === 'offers') p.where.push('e.msg_type IN (3, 4, 5, 6)');
      seqWhere(p, p.where, 'e.seq', f);
      break;
    case 'feedback':
      Object.assign(p, {
        select: `f.envelope_id, f.conversation_id, f.from_agent, f.target_agent, f.score, f.outcome, f.is_dispute,
          f.role,
        f.timestamp::text AS ts, f.epoch,
        CASE WHEN f.timestamp = ${INT8_MAX} THEN (SELECT e.raw FROM envelope e WHERE e.id = f.envelope_id LIMIT 1) END
          AS raw`,
        from: 'feedback f',
        key: [{ expr: 'f.envelope_id', alias: 'envelope_id', cast: 'bytea' }],
      });
      timeWhere(p, 'f.timestamp', f);
      if (f.agent) {
        p.args.push(f.agent);
        p.where.push(`(f.from_agent = $${p.args.length} OR f.target_agent = $${p.args.length})`);
      }
      // A FEEDBACK row is its envelope's: stored by the snapshot when the envelope is.
      if (f.maxSeq !== undefined) {
        const w: string[] = [];
        seqWhere(p, w, 'fe.seq', f);
        p.where.push(
          `EXISTS (SELECT 1 FROM envelope fe WHERE fe.id = ` +
            `f.envelope_id AND fe.epoch = f.epoch AND ${w.join(' AND ')})`,
        );
      }
      break;
    case 'batches':
    case 'challenges': {
      const t = table === 'batches' ? 'b' : 'c';
      Object.assign(
        p,
        table === 'batches'
          ? {
              select:
                `b.agent_id, b.epoch::text AS epoch, b.batch_hash, b.root, b.slot::text ` +
                `AS slot, b.signature, b.status::text AS status, b.log_root, b.updated_at`,
              from: 'batch b',
              key: [
                { expr: 'b.epoch', alias: 'epoch', cast: 'int8' },
                { expr: 'b.agent_id', alias: 'agent_id', cast: 'bytea' },
              ],
            }
          : {
              select: `c.address, c.agent_id, c.epoch::text AS epoch, c.challenger, c.status, c.slot::text AS slot,
                c.opened_slot::text AS opened_slot, c.updated_at,
          (SELECT COALESCE(json_agg(json_build_object('status', t.status, 'slot', t.slot::text, 'signature',
            t.signature) ORDER BY t.slot, t.id), '[]'::json)::text
             FROM challenge_transition t WHERE t.challenge = c.address) AS transitions`,
              // Byte order whatever the database's collation: a release's row order is declared
              // (lib/export/verify-order.ts).
              from: 'challenge c',
              key: [{ expr: '(c.address COLLATE "C")', alias: 'address', cast: 'text' }],
            },
      );
      // A batch or challenge is "at" the start of its epoch.
      timeWhere(p, `(${t}.epoch * ${epochUs})`, f);
      if (f.agent) {
        p.args.push(f.agent);
        p.where.push(`${t}.agent_id = $${p.args.length}`);
      }
      break;
    }
    case 'reconciliation':
      Object.assign(p, {
        select: `r.agent_id, r.epoch::text AS epoch, r.status::text AS status, r.log_entries, r.seen, r.seen_logged,
          r.seen_not_logged, r.logged_not_seen,
        r.seen_broadcast, r.committed_broadcast, r.seen_notary, r.committed_notary, r.seen_reputation,
          r.committed_reputation, r.seen_stream, r.committed_stream, r.computed_at`,
        from: 'reconciliation r',
        key: [
          { expr: 'r.epoch', alias: 'epoch', cast: 'int8' },
          { expr: 'r.agent_id', alias: 'agent_id', cast: 'bytea' },
        ],
      });
      timeWhere(p, `(r.epoch * ${epochUs})`, f);
      if (f.agent) {
        p.args.push(f.agent);
        p.where.push(`r.agent_id = $${p.args.length}`);
      }
      break;
    case 'disputes': {
      // One row per DISPUTE envelope with what its conversation says about it: the first PROPOSE
      // (proposer, responder), the NOTARIZE_ASSIGN (the notary), the first VERDICT (its bytes, decoded
      // in lib/export) and the current opinions of the reviewers the deployment names (dispute_opinion
      // rows marked counted; strangers' opinions are not the dataset's). Oldest first.
      const stored: string[] = [];
      seqWhere(p, stored, 's.seq', f);
      const first = (
        type: number,
        cols: string,
      ) => `LEFT JOIN LATERAL (SELECT ${cols} FROM envelope s WHERE s.conversation_id = e.conversation_id AND s.msg_type
        = ${type}${stored.map((w) => ` AND ${w}`).join('')}
        ORDER BY s.timestamp, s.nonce, s.id LIMIT 1)`;
      Object.assign(p, {
        select: `e.id, e.raw, e.conversation_id, e.sender, e.recipient, e.epoch, (extract(epoch from e.received_at) *
          1000000)::int8::text AS received_us,
          pr.sender AS proposer, pr.recipient AS responder, na.recipient AS notary, v.raw AS verdict_raw, v.payload_len
            AS verdict_payload_len,
          oc.total, oc.upheld, oc.rejected, oc.unclear, (extract(epoch from oc.last_at) * 1000000)::int8::text AS
            last_opinion_us`,
        from: `envelope e ${first(3, 's.sender, s.recipient')} pr ON true ${first(9, 's.recipient')} na ON true
          ${first(10, 's.raw, s.payload_len')} v ON true
          LEFT JOIN LATERAL (SELECT count(*)::int AS total, count(*) FILTER (WHERE o.opinion = 'upheld')::int AS upheld,
            count(*) FILTER (WHERE o.opinion = 'rejected')::int AS rejected, count(*) FILTER (WHERE o.opinion =
              'unclear')::int AS unclear, max(o.signed_at) AS last_at
            FROM dispute_opinion o WHERE o.dispute_id = e.id AND o.counted) oc ON true`,
        key: [
          { expr: 'e.timestamp', alias: 'ts', cast: 'int8' },
          { expr: 'e.id', alias: 'id', cast: 'bytea' },
        ],
      });
      p.where.push('e.msg_type = 12');
      seqWhere(p, p.where, 'e.seq', f);
      timeWhere(p, 'e.timestamp', f);
      epochWhere(p, p.where, 'e.epoch', f, epochSeconds);
      if (f.agent) {
        p.args.push(f.agent);
        p.where.push(`(e.sender = $${p.args.length} OR e.recipient = $${p.args.length})`);
      }
      break;
    }
  }
  return p;
}

const whereSql = (w: string[]) => (w.length ? `WHERE ${w.join(' AND ')}` : '');

/** Rows `table` would export under `f` (the total the API sends before the first row). */
export async function exportCount(
  q: Queryable,
  table: ExportStoreTable,
  f: ExportFilter,
  epochSeconds: number,
): Promise<number> {
  const p = plan(table, f, epochSeconds);
  const what = table === 'conversations' ? 'count(DISTINCT e.conversation_id)' : 'count(*)';
  if (table === 'offers')
    p.where.push(`e.msg_type IN (3, 4) AND e.payload_len >= 4 AND ${HINT} = '\\x4e454731'::bytea`);
  const [r] = await q.query<DbRow>(`SELECT ${what}::text AS n FROM ${p.from} ${whereSql(p.where)}`, p.args);
  return Number(r.n);
}

/**
 * `reader` names the reading in Postgres (the cursor is `zx_<reader>_cursor`), so
 * pg_stat_activity tells a release being written from a download being served.
 */
export interface ScanOptions {
  pageSize?: number;
  signal?: AbortSignal;
  reader?: ExportReader;
}
export type ExportReader = 'export' | 'release';

/** Runs on each page as it is read, on the connection (and in the transaction) that read it. */
type PageHook = (q: Queryable, rows: DbRow[]) => Promise<void>;

/** The rows of `table` under `f` in key order, in pages (module comment for how). */
export function exportScan(
  db: Db,
  table: ExportStoreTable,
  f: ExportFilter,
  epochSeconds: number,
  o: ScanOptions = {},
  hook?: PageHook,
): AsyncIterable<DbRow[]> {
  const p = plan(table, f, epochSeconds);
  const pageSize = o.pageSize ?? 5_000;
  const order = p.key.map((k) => k.expr).join(', ');
  if (db.kind === 'postgres')
    return cursorPages(
      db,
      `SELECT ${p.select} FROM ${p.from} ${whereSql(p.where)} ORDER BY ${order}`,
      p.args,
      pageSize,
      o.signal,
      hook,
      o.reader,
    );
  return keysetPages(db, p, pageSize, o.signal, hook);
}

/** A page of the negotiations' envelopes with the Haggle negotiations of the conversations in it. */
export interface NegotiationPage {
  rows: DbRow[];
  onChain: HaggleNegotiationRow[];
}

/**
 * Every envelope of the selected negotiations (the `conversations` scan), each page with the
 * on-chain negotiations of its conversations. They are read on the cursor's own connection
 * inside its transaction: a second pool connection per export could deadlock once concurrent
 * exports hold every connection of the pool.
 */
export async function* exportNegotiationScan(
  db: Db,
  f: ExportFilter,
  epochSeconds: number,
  o: ScanOptions = {},
): AsyncIterable<NegotiationPage> {
  const onChain = new WeakMap<DbRow[], HaggleNegotiationRow[]>();
  const hook: PageHook = async (q, rows) => {
    const ids = new Map<string, Uint8Array>();
    for (const r of rows) {
      const c = r.conversation_id as Uint8Array;
      ids.set(Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('hex'), c);
    }
    onChain.set(rows, await onChainNegotiationsOf(q, [...ids.values()]));
  };
  for await (const rows of exportScan(db, 'conversations', f, epochSeconds, o, hook))
    yield { rows, onChain: onChain.get(rows) ?? [] };
}

async function* keysetPages(
  db: Queryable,
  p: Plan,
  pageSize: number,
  signal?: AbortSignal,
  hook?: PageHook,
): AsyncIterable<DbRow[]> {
  let last: unknown[] | null = null;
  const order = p.key.map((k) => k.expr).join(', ');
  for (;;) {
    signal?.throwIfAborted();
    const args = [...p.args];
    const where = [...p.where];
    if (last) {
      const ph = last.map((_v, i) => `$${args.length + i + 1}::${p.key[i].cast}`);
      args.push(...last);
      where.push(`(${order}) > (${ph.join(', ')})`);
    }
    args.push(pageSize);
    // int8/numeric keys as text (PGlite reads int8 as a lossy JS number); bytea as bytes.
    const keys = p.key.map((k) => `${k.expr}${k.cast === 'bytea' ? '' : '::text'} AS "_k_${k.alias}"`).join(', ');
    const rows = await db.query<DbRow>(
      `SELECT ${p.select}, ${keys} FROM ${p.from} ${whereSql(where)} ORDER BY ${order} LIMIT $${args.length}`,
      args,
    );
    if (rows.length === 0) return;
    const tail = rows[rows.length - 1];
    last = p.key.map((k) => tail[`_k_${k.alias}`]);
    await hook?.(db, rows);
    yield rows;
    if (rows.length < pageSize) return;
  }
}

/**
 * A Postgres cursor read as pages, at most one page ahead of the consumer. The transaction
 * callback waits for the consumer when a fetched page is still untaken; a consumer that stops (return/throw/abort)
 * makes the callback throw, which rolls the transaction back and closes the cursor.
 */
function cursorPages(
  db: Db,
  sql: string,
  args: unknown[],
  pageSize: number,
  signal?: AbortSignal,
  hook?: PageHook,
  reader: ExportReader = 'export',
): AsyncIterable<DbRow[]> {
  const cursor = `zx_${reader}_cursor`;
  return {
    [Symbol.asyncIterator]() {
      type Slot = { rows: DbRow[] | null; error?: unknown };
      let deliver: ((s: Slot) => void) | null = null;
      let pending: Slot[] = [];
      let demand: (() => void) | null = null;
      let stopped = false;
      const stop = new Error('export consumer stopped');
      const push = (s: Slot) => {
        if (deliver) {
          const d = deliver;
          deliver = null;
          d(s);
        } else pending.push(s);
      };
      const waitDemand = () =>
        new Promise<void>((res, rej) => {
          if (stopped) return rej(stop);
          demand = () => (stopped ? rej(stop) : res());
        });
      const onAbort = () => {
        stopped = true;
        const d = demand;
        demand = null;
        d?.();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let started = false;
      const run = () =>
        db
          .transaction(async (tx) => {
            await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, args);
            for (;;) {
              const rows = await tx.query<DbRow>(`FETCH ${pageSize} FROM ${cursor}`);
              if (rows.length === 0) break;
              await hook?.(tx, rows);
              push({ rows });
              // Read one page ahead while the consumer works on the last one (Postgres and the
              // export then run on two cores); wait only when that page is still untaken.
              if (pending.length > 0) await waitDemand();
            }
          })
          .then(
            () => push({ rows: null }),
            (error) => push({ rows: null, error: error === stop ? undefined : error }),
          )
          .finally(() => signal?.removeEventListener('abort', onAbort));
      return {
        next(): Promise<IteratorResult<DbRow[]>> {
          if (signal?.aborted) {
            onAbort();
            return Promise.reject(signal.reason);
          }
          if (!started) {
            started = true;
            void run();
          } else {
            const d = demand;
            demand = null;
            d?.();
          }
          const take = (s: Slot): IteratorResult<DbRow[]> => {
            if (s.error) throw s.error;
            return s.rows ? { value: s.rows, done: false } : { value: undefined, done: true };
          };
          if (pending.length) {
            const s = pending[0];
            pending = pending.slice(1);
            return Promise.resolve().then(() => take(s));
          }
          return new Promise<Slot>((res) => {
            deliver = res;
          }).then(take);
        },
        return(): Promise<IteratorResult<DbRow[]>> {
          onAbort();
          return Promise.resolve({ value: undefined, done: true });
        },
      };
    },
  };
}

/** Batch roots the envelopes of `epoch` are committed under (release manifests). */
export async function exportBatchRoots(q: Queryable, epoch: bigint): Promise<DbRow[]> {
  return q.query<DbRow>(
    `SELECT agent_id, epoch::text AS epoch, root, batch_hash, slot::text AS slot, status::text AS status
    FROM batch WHERE epoch = $1::int8 ORDER BY agent_id`,
    [epoch.toString()],
  );
}

/** The uploaded log of (agent, epoch): envelope ids in log order (release manifests). */
export async function exportEpochLogIds(q: Queryable, agent: Uint8Array, epoch: bigint): Promise<Uint8Array[]> {
  const rows = await q.query<DbRow>(
    `SELECT envelope_id FROM epoch_log_entry WHERE agent_id = $1 AND epoch = $2::int8 ORDER BY position`,
    [agent, epoch.toString()],
  );
  return rows.map((r) => r.envelope_id as Uint8Array);
}

/**
 * The newest envelope `seq` with every envelope at or below it committed: a release passes it as
 * every read's `maxSeq`, so its tables, context file and logs describe one state of the store
 * while envelopes keep arriving. A writer takes its `seq` values inside a transaction holding
 * ROW EXCLUSIVE on the table; SHARE mode waits for those transactions to end and holds new ones
 * back for the one index read, so no lower `seq` can commit after this answer. As partition
 * creation (partitions.ts), the wait is bounded (lock_timeout) rather than queueing every ingest
 * behind a slow writer: a release that cannot take the lock fails and the scheduler retries it.
 */
export async function exportSeqWatermark(db: Db): Promise<bigint> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query(`SET LOCAL lock_timeout = '2s'`);
    await tx.query('LOCK TABLE envelope IN SHARE MODE');
    const [r] = await tx.query<DbRow>('SELECT COALESCE(max(seq), 0)::text AS w FROM envelope');
    return BigInt(String(r.w));
  });
}

/**
 * Epochs in [first, last] that have envelopes, ascending (release scheduling). The bounds are the
 * partition key, so only the window's partitions are read; epochs outside it (a sender can date
 * an envelope anywhere) are never looked at.
 */
export async function exportEpochs(q: Queryable, first: number, last: number): Promise<number[]> {
  const int4 = (n: number) => Math.max(-2147483648, Math.min(2147483647, Math.trunc(n)));
  const rows = await q.query<DbRow>(
    `SELECT DISTINCT epoch FROM envelope WHERE epoch >= $1::int4 AND epoch <= $2::int4 ORDER BY epoch`,
    [int4(first), int4(last)],
  );
  return rows.map((r) => Number(r.epoch));
}

/** The export reads bound to one store's connection and epoch length (Store.exportSource()). */
export function exportSource(db: Db, epochSeconds: number, reader: ExportReader = 'export') {
  const named = (o?: ScanOptions): ScanOptions => ({ ...o, reader });
  return {
    kind: db.kind,
    epochSeconds,
    count: (table: ExportStoreTable, f: ExportFilter) => exportCount(db, table, f, epochSeconds),
    scan: (table: ExportStoreTable, f: ExportFilter, o?: ScanOptions) =>
      exportScan(db, table, f, epochSeconds, named(o)),
    batchRoots: (epoch: bigint) => exportBatchRoots(db, epoch),
    epochLogIds: (agent: Uint8Array, epoch: bigint) => exportEpochLogIds(db, agent, epoch),
    epochs: (first: number, last: number) => exportEpochs(db, first, last),
    /** The `maxSeq` of one consistent state of the envelopes (a release's snapshot). */
    seqWatermark: () => exportSeqWatermark(db),
    /** The negotiations table's read: the `conversations` scan with each page's Haggle negotiations (haggle.ts). */
    scanNegotiations: (f: ExportFilter, o?: ScanOptions) => exportNegotiationScan(db, f, epochSeconds, named(o)),
    /** Postgres only (else null): the envelopes CSV fast path's binary COPY data (export-copy.ts). */
    envelopeCsvCopy: (f: ExportFilter, o: EnvelopeCsvCopy, signal?: AbortSignal) =>
      envelopeCsvCopy(db, f, o, signal, epochSeconds, reader),
    /** Postgres only (else null): the envelopes Parquet fast path's binary COPY data (export-copy.ts). */
    envelopeParquetCopy: (f: ExportFilter, limit?: number, signal?: AbortSignal) =>
      envelopeParquetCopy(db, f, limit, signal, epochSeconds, reader),
  };
}
export type ExportSource = ReturnType<typeof exportSource>;

/**
 * Postgres's own text export of the same envelope rows (the bench's reference): every stored
 * column of `envelope` in the export's order, as CSV.
 */
export function envelopesCopySql(): string {
  return `COPY (SELECT e.id, e.seq, e.version, e.msg_type, e.sender, e.recipient, e.timestamp, e.block_ref, e.nonce,
    e.conversation_id,
    e.payload_hash, e.payload_len, e.signature, e.raw, e.source, e.topic, e.received_at, e.epoch FROM envelope e ORDER
      BY e.seq) TO STDOUT WITH (FORMAT csv, HEADER)`;
}
