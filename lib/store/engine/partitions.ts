/**
 * The envelope table's partitions (docs/architecture.md "Scale"). `envelope` is partitioned by
 * RANGE (epoch); each partition holds `span` consecutive epochs, about a week of wall time
 * whatever EPOCH_SECONDS is: 7 epochs of a day in production, 30,240 of the demo's 20 s. A
 * partition per epoch would give the demo thousands of tables a day, and every read that cannot
 * prune (an agent's envelopes, a conversation's) probes one index per partition, so the count
 * has to stay in the tens per year, not thousands.
 *
 * Partitions exist before their rows arrive: at start the store creates the range of the current
 * epoch and the next one, and when the wall clock enters a new range the next ingest creates the
 * range after it, a whole span ahead. Rows with no partition (an unpartitioned database just
 * migrated, a creation that timed out, timestamps far from now) land in `envelope_default`; at
 * start the ranges of those rows that lie inside the archive window ({@link archiveWindowSeconds}
 * back from now, up to the next range) are created and the rows moved there. Ranges outside it
 * are never created on account of rows: the observer refuses such timestamps, and a row that got
 * in anyway (an import, an older version) stays in the default, so nothing a client sends
 * creates partitions without bound (at most {@link maxWindowPartitions}). `cover` is the
 * operator's explicit call (imports, benches) and is not bounded. Creation takes an ACCESS EXCLUSIVE
 * lock on `envelope`, so it waits at most LOCK_TIMEOUT behind a long reader (an export) and is
 * retried later instead of queueing every ingest and page behind it.
 */
import type { Db } from './db';

/** Wall time one partition covers. */
export const PARTITION_SECONDS = 7 * 86_400;
const INT4_MAX = 2_147_483_647;
/** Serialises partition creation across processes sharing one Postgres. */
const PARTITION_LOCK_KEY = 0x7a787031; // "zxp1"
const LOCK_TIMEOUT = '2s';
const RETRY_MS = 60_000;
/** Ranges moved out of the default partition per start (the rest wait for the next start). */
const MAX_MOVED_RANGES = 256;

export function epochsPerPartition(epochSeconds: number): number {
  return Math.max(1, Math.round(PARTITION_SECONDS / epochSeconds));
}

/** The archive window's floor: four weeks, for an agent offline a while to catch up. */
export const ARCHIVE_MIN_SECONDS = 28 * 86_400;
/**
 * How far back an archive upload may be dated, seconds: long enough for the batch that commits to
 * an envelope to matter (its epoch, the next, in which the batch is submitted, and the two epochs
 * of the challenge window), and at least {@link ARCHIVE_MIN_SECONDS}.
 */
export function archiveWindowSeconds(epochSeconds: number): number {
  if (!Number.isInteger(epochSeconds) || epochSeconds < 1)
    throw new RangeError('epochSeconds must be a positive integer');
  return Math.max(ARCHIVE_MIN_SECONDS, 4 * epochSeconds);
}

/** Most partitions the archive window can hold (its ranges, the current one and the next). */
export function maxWindowPartitions(epochSeconds: number): number {
  const span = epochsPerPartition(epochSeconds);
  return Math.ceil(archiveWindowSeconds(epochSeconds) / epochSeconds / span) + 3;
}

export interface EnvelopePartition {
  name: string;
  from: number | null;
  to: number | null;
  rows: number;
}

export interface PartitionKeeper {
  readonly span: number;
  /** Creates the current and next range and moves rows out of the default partition. */
  start(): Promise<void>;
  /** Before an ingest: resolves at once unless the wall clock entered a range not yet prepared. */
  beforeIngest(): Promise<void> | undefined;
  /** Creates the ranges covering epochs `from..to` (backfills and imports of old envelopes). */
  cover(from: number, to: number): Promise<void>;
  /** Partitions with their epoch bounds (null for the default) and exact row counts. */
  list(): Promise<EnvelopePartition[]>;
}

export function partitionKeeper(
  db: Db,
  epochSeconds: number,
  o: { now?: () => number; warn?: (msg: string) => void } = {},
): PartitionKeeper {
  const span = epochsPerPartition(epochSeconds);
  const now = o.now ?? Date.now;
  const ready = new Set<number>();
  let retryAt = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const lowOf = (epoch: number) => Math.floor(epoch / span) * span;
  const currentLow = () => lowOf(Math.min(INT4_MAX, Math.floor(now() / 1000 / epochSeconds)));

  /** Creates [lo, lo + span) unless it exists; false when it could not (lock timeout, overlap). */
  async function ensure(lo: number): Promise<boolean> {
    if (ready.has(lo)) return true;
    const hi = lo + span;
    if (lo < 0 || hi > INT4_MAX) return false; // the clamped far future stays in the default
    const name = `envelope_e${lo}_${hi}`;
    try {
      await db.transaction(async (tx) => {
        if (db.kind === 'postgres') await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        await tx.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK_KEY]);
        const [exists] = await tx.query(
          `SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'envelope'::regclass AND c.relname = $1`,
          [name],
        );
        if (exists) return;
        // Rows of the range already in the default would violate its new constraint: move them.
        const [moving] = await tx.query(
          `SELECT 1 FROM envelope_default WHERE epoch >= ${lo} AND epoch < ${hi} LIMIT 1`,
        );
        if (moving) {
          await tx.query('CREATE TEMP TABLE zx_moving (LIKE envelope) ON COMMIT DROP');
          await tx.query(
            `WITH d AS (DELETE FROM envelope_default WHERE epoch >= ${lo} AND ` +
              `epoch < ${hi} RETURNING *) INSERT INTO zx_moving SELECT * FROM d`,
          );
        }
        await tx.query(`CREATE TABLE "${name}" PARTITION OF envelope FOR VALUES FROM (${lo}) TO (${hi})`);
        if (moving) await tx.query('INSERT INTO envelope SELECT * FROM zx_moving');
      });
      ready.add(lo);
      return true;
    } catch (e) {
      // 42P17: overlaps a partition made with another EPOCH_SECONDS; 55P03: lock timeout.
      o.warn?.(
        `store: envelope partition ${name} not created (` +
          `${e instanceof Error ? e.message : String(e)}); its rows stay in envelope_default`,
      );
      if ((e as { code?: string }).code === '42P17') ready.add(lo);
      return false;
    }
  }

  async function prepareNow(): Promise<void> {
    const lo = currentLow();
    const ok = (await ensure(lo)) && (await ensure(lo + span));
    retryAt = ok ? 0 : now() + RETRY_MS;
  }

  /** One creation at a time per store (the advisory lock covers other processes). */
  const serial = (fn: () => Promise<void>): Promise<void> => {
    const run = chain.then(fn);
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    span,
    start: () =>
      serial(async () => {
        await prepareNow();
        const first = lowOf(
          Math.max(
            0,
            Math.floor(now() / 1000 / epochSeconds) - Math.ceil(archiveWindowSeconds(epochSeconds) / epochSeconds),
          ),
        );
        const last = currentLow() + span;
        const rows = await db.query<{
          lo: number;
        }>(`SELECT DISTINCT (epoch / ${span}) * ${span} AS lo FROM envelope_default
        WHERE epoch >= ${first} AND epoch < ${last + span} ORDER BY 1 LIMIT ${MAX_MOVED_RANGES}`);
        for (const r of rows) await ensure(Number(r.lo));
      }),
    beforeIngest() {
      if (ready.has(currentLow()) && ready.has(currentLow() + span)) return undefined;
      if (now() < retryAt) return undefined;
      // Never fail an ingest over a partition: without one the rows land in the default.
      return serial(prepareNow).catch(() => undefined);
    },
    cover: (from, to) =>
      serial(async () => {
        for (let lo = lowOf(from); lo <= to; lo += span) await ensure(lo);
      }),
    async list() {
      const parts = await db.query<{
        name: string;
        bound: string;
      }>(`SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'envelope'::regclass ORDER BY
          c.relname`);
      const out: EnvelopePartition[] = [];
      for (const p of parts) {
        const m = /FROM \((\d+)\) TO \((\d+)\)/.exec(p.bound);
        const [n] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${p.name}"`);
        out.push({ name: p.name, from: m ? Number(m[1]) : null, to: m ? Number(m[2]) : null, rows: Number(n.n) });
      }
      return out;
    },
  };
}
