/// <reference path="./pg-copy-streams.d.ts" />
/**
 * One small driver layer over the two databases the store runs on (docs/architecture.md "Embedded
 * defaults"): embedded PGlite (file-backed, one process) and a Postgres server through `pg`.
 * The ingest hot path and aggregates use it with raw SQL; Prisma's client and schema engine
 * share the same connection (PGlite instance or pg pool) through their driver adapters.
 */
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { StoreError } from './errors';
import { createLaneGate, inBackground } from './lanes';
import { createListener } from './pg-listen';

/** Anything that runs SQL with positional parameters and returns rows. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A transaction's handle: queries plus the hot-path extras the ingest uses (see ingest.ts). */
export interface Tx extends Queryable {
  /** Stable identity of the underlying session (temp tables live per session). */
  readonly session: object;
  /** Runs `sql` as a named prepared statement where the driver supports it (Postgres). */
  prepared<T = Record<string, unknown>>(name: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** `COPY <target> FROM STDIN (FORMAT binary)` with `data` (PGlite: FROM '/dev/blob'). */
  copyIn(target: string, data: Uint8Array): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs one statement as a named prepared statement where the driver supports it (Postgres:
   * parsed once per connection; Buffer parameters travel in binary), in its own implicit
   * transaction.
   */
  prepared<T = Record<string, unknown>>(name: string, sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction (BEGIN … COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `fn` holding a session-level advisory lock (Postgres) or an in-process mutex (PGlite). */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /** LISTEN on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** NOTIFYs every payload on `channel`, in order, in one query (one transaction, one round trip). */
  notifyMany(channel: string, payloads: readonly string[]): Promise<void>;
  /**
   * Postgres only: `COPY (…) TO STDOUT` on a dedicated pool connection, as the raw COPY data
   * chunks. The consumer pulls (the socket is read only as fast as it takes chunks); stopping
   * early or `signal` cancels the statement server-side (pg_cancel_backend) and discards the
   * connection, so an abandoned export leaves nothing running.
   */
  copyOut?(sql: string, signal?: AbortSignal): AsyncIterable<Uint8Array>;
  /** PGlite only: a tar of its data directory as it is now (memory-image.ts). */
  dumpImage?(): Promise<Blob>;
  /** Driver adapter factory for Prisma's client and schema engine, on the same connection(s). */
  readonly adapter: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}

/**
 * NOTIFYs `payloads` in order with one query. Each payload must be a JSON object's text (the
 * observer's live payloads are): together they are one JSON array, one text parameter without
 * per-element escaping, and `json` (not `jsonb`) keeps each element's text verbatim.
 */
async function notifyEach(q: Queryable, channel: string, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  if (payloads.length === 1) {
    await q.query('SELECT pg_notify($1, $2)', [channel, payloads[0]]);
    return;
  }
  await q.query(
    'SELECT pg_notify($1, p::text) FROM json_array_elements($2::json) WITH ORDINALITY AS x(p, i) ORDER BY i',
    [channel, `[${payloads.join(',')}]`],
  );
}

/**
 * PGlite runs Postgres as a single-user backend: there is no checkpointer process. Once the WAL
 * written since the last checkpoint reaches the checkpoint distance (about max_wal_size / 1.9,
 * ~540 MB at the default 1 GB), every later WAL segment asks the missing checkpointer for a
 * checkpoint and sleeps 60 s waiting for it, inside a synchronous call on the event loop: the
 * whole process stalls, and the WAL folder only grows. Measured on the demo: after ~40 minutes
 * the server stopped answering. So the store checkpoints itself well before that distance,
 * which also lets Postgres recycle old segments and bounds pg_wal on disk.
 */
export const PGLITE_CHECKPOINT_BYTES = 64 * 2 ** 20;
/** How often the WAL position is read (one cheap query). */
export const PGLITE_CHECKPOINT_CHECK_MS = 5_000;

/**
 * bytea as PGlite's text protocol carries it ('\\x' + hex). PGlite's own parser makes a
 * substring, a parseInt and a callback per byte, and its serializer two strings per byte: at the
 * demo's rate that was the largest share of the observer's garbage (allocation sampling: about
 * 0.4 of 3.4 GB a minute), which keeps the heap's high-water mark, and the RSS with it,
 * climbing. Node decodes and encodes hex natively; the result is an exact-size Uint8Array
 * (never a view of a shared pool, which a long-lived id would pin).
 */
export function parseByteaHex(text: string): Uint8Array {
  const hexChars = text.length - 2;
  if (hexChars < 0 || hexChars % 2 !== 0 || text.charCodeAt(0) !== 92 || text.charCodeAt(1) !== 120) {
    throw new StoreError(`bytea not in hex form: ${JSON.stringify(text.slice(0, 16))}`);
  }
  const out = new Uint8Array(hexChars / 2);
  const written = Buffer.from(out.buffer, 0, out.length).write(text.slice(2), 'hex');
  // Buffer#write stops at the first character that is not hex.
  if (written !== out.length) throw new StoreError(`bytea not in hex form: ${JSON.stringify(text.slice(0, 16))}`);
  return out;
}

/** The parameter side of {@link parseByteaHex}. */
export function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new StoreError('a bytea parameter must be a Uint8Array');
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

/**
 * PGlite executes each statement synchronously on this thread, and a chain of awaited statements
 * (one commit: the envelopes, then the Haggle transitions, the chain events, the drops …)
 * continues in microtasks, which never let the event loop poll its sockets: every request that
 * arrived meanwhile waits for the whole chain. So before a statement, once this thread has gone
 * this long without an event-loop turn, the store lets one happen (setImmediate: pending I/O is
 * polled first).
 */
export const PGLITE_SLICE_MS = 20;

/** The wait before a PGlite statement: nothing, or one event-loop turn when the current run is older than `sliceMs`. */
export function turnTaker(sliceMs: number): () => Promise<void> | undefined {
  // When the marker was scheduled; -1 when none is pending (the loop turned since).
  let pendingSince = -1;
  const turned = () => {
    pendingSince = -1;
  };
  return () => {
    const now = performance.now();
    if (pendingSince < 0) {
      pendingSince = now;
      setImmediate(turned);
      return undefined;
    }
    if (now - pendingSince <= sliceMs) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve));
  };
}

const PGLITE_TYPES = { parsers: { 17: parseByteaHex }, serializers: { 17: serializeBytea } };

/** Checks PGlite's WAL size every `checkpointCheckMs` and checkpoints past `checkpointBytes`. */
function startCheckpoints(
  client: PGlite,
  opts: { checkpointBytes?: number; checkpointCheckMs?: number },
): { stop(): void } {
  const checkpointBytes = opts.checkpointBytes ?? PGLITE_CHECKPOINT_BYTES;
  let checkpointing = false;
  let closed = false;
  const checkpointIfDue = async () => {
    if (checkpointing || closed) return;
    checkpointing = true;
    try {
      const [r] = (
        await client.query<{ since: string }>(
          'SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::text AS since FROM pg_control_checkpoint()',
        )
      ).rows;
      if (!closed && r && Number(r.since) >= checkpointBytes) await client.exec('CHECKPOINT');
    } catch {
      // A failed read or checkpoint is retried at the next tick; the query path reports real errors.
    } finally {
      checkpointing = false;
    }
  };
  const walTimer = setInterval(() => {
    void checkpointIfDue();
  }, opts.checkpointCheckMs ?? PGLITE_CHECKPOINT_CHECK_MS);
  walTimer.unref();
  return {
    stop: () => {
      closed = true;
      clearInterval(walTimer);
    },
  };
}

/** Opens embedded PGlite; `dataDir` undefined = in memory (tests), else file-backed. */
export async function openPglite(
  dataDir?: string,
  opts: { checkpointBytes?: number; checkpointCheckMs?: number; image?: Blob } = {},
): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  let client: PGlite;
  try {
    client = dataDir
      ? await PGlite.create(dataDir, PGLITE_TYPES)
      : await PGlite.create({ ...PGLITE_TYPES, ...(opts.image ? { loadDataDir: opts.image } : {}) });
  } catch (cause) {
    throw new StoreError(`cannot open PGlite database in ${dataDir ?? 'memory'}`, { cause });
  }
  let chain: Promise<unknown> = Promise.resolve();
  const turn = turnTaker(PGLITE_SLICE_MS);
  const queryable = (q: { query: PGlite['query'] }): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      await turn();
      return (await q.query<T>(sql, params as unknown[])).rows;
    },
  });
  // Heavy reads yield to everything else (lanes.ts); inside a transaction every statement is
  // already behind PGlite's transaction lock, so only top-level statements and BEGINs take a lane.
  const lanes = createLaneGate();
  const inLane = <T>(run: () => Promise<T>): Promise<T> =>
    inBackground() ? lanes.background(run) : lanes.foreground(run);
  const direct = queryable(client);
  const top: Queryable = { query: (sql, params) => inLane(() => direct.query(sql, params)) };
  const checkpoints = startCheckpoints(client, opts);
  return {
    kind: 'pglite',
    ...top,
    // PGlite has no named statements: a prepared statement is a plain query.
    prepared: (_name, sql, params) => top.query(sql, params),
    transaction: (fn) =>
      inLane(() =>
        client.transaction((tx) => {
          const q = queryable(tx);
          return fn({
            ...q,
            session: client,
            prepared: (_name, sql, params) => q.query(sql, params),
            async copyIn(target, data) {
              await turn();
              await tx.query(`COPY ${target} FROM '/dev/blob' WITH (FORMAT binary)`, [], {
                blob: new Blob([data as Uint8Array<ArrayBuffer>]),
              });
            },
          });
        }),
      ),
    withLock<T>(_key: number, fn: () => Promise<T>) {
      const run = chain.then(fn, fn);
      chain = run.catch(() => undefined);
      return run;
    },
    async listen(channel, fn) {
      const off = await client.listen(channel, fn);
      return async () => {
        await off();
      };
    },
    async notify(channel, payload) {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    notifyMany: (channel, payloads) => notifyEach(top, channel, payloads),
    adapter: new PrismaPGlite(client),
    dumpImage: () => client.dumpDataDir('none'),
    close: () => {
      checkpoints.stop();
      return client.close();
    },
  };
}

/** Opens a pg pool on `url` (postgres://…). The pool is shared with Prisma's adapter. */
export async function openPostgres(url: string, poolSize = 8): Promise<Db> {
  // A connect that hangs (server gone without a RST) fails after 5 s instead of never, so a
  // write retried through an outage and the health probe both get an answer; keepAlive finds
  // dead idle sockets. Clients the server terminated are discarded by the pool on release.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000, keepAlive: true });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  /**
   * A checked-out client whose server goes away between two queries emits 'error' with no
   * query to fail; unheard, that event would end the process. Held clients get this listener
   * (removed on release: the pool has its own for idle ones).
   */
  const swallow = (): void => {
    /* the next query on this client fails and says why */
  };
  const hold = async (): Promise<pg.PoolClient> => {
    const c = await pool.connect();
    c.on('error', swallow);
    return c;
  };
  const letGo = (c: pg.PoolClient, err?: Error): void => {
    c.off('error', swallow);
    c.release(err);
  };
  try {
    await pool.query('SELECT 1');
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`cannot connect to Postgres at DATABASE_URL (${redact(url)})`, { cause });
  }
  const listening = createListener(url);
  const db: Db = {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async prepared<T>(name: string, sql: string, params?: unknown[]) {
      return (await pool.query({ name, text: sql, values: params })).rows as T[];
    },
    async transaction(fn) {
      const c = await hold();
      try {
        await c.query('BEGIN');
        const out = await fn({
          query: async <T>(sql: string, params?: unknown[]) => (await c.query(sql, params)).rows as T[],
          session: c,
          prepared: async <T>(name: string, sql: string, params?: unknown[]) =>
            (await c.query({ name, text: sql, values: params })).rows as T[],
          async copyIn(target, data) {
            await pipeline(Readable.from([data]), c.query(copyFrom(`COPY ${target} FROM STDIN WITH (FORMAT binary)`)));
          },
        });
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        letGo(c);
      }
    },
    async withLock(key, fn) {
      const c = await hold();
      try {
        await c.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await c.query('SELECT pg_advisory_unlock($1)', [key]);
        }
      } finally {
        letGo(c);
      }
    },
    listen: (channel, fn) => listening.listen(channel, fn),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    notifyMany: (channel, payloads) => notifyEach(db, channel, payloads),
    async *copyOut(sql, signal) {
      signal?.throwIfAborted();
      const c = await hold();
      // Exports stream in seq order. On the epoch-partitioned envelope table the planner prefers
      // to sort the whole selection (wide rows: a multi-GB spill at a million rows) over merging
      // each partition's (seq, epoch) index, which streams at once and is faster at every size
      // measured (bench:export); the setting lives only until RESET below or the connection's end.
      let stream: ReturnType<typeof copyTo> | undefined;
      let finished = false;
      let failed: unknown;
      try {
        await c.query('SET enable_sort = off');
        stream = c.query(copyTo(sql));
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          signal?.throwIfAborted();
          yield chunk;
        }
        finished = true;
      } catch (e) {
        failed = e;
        throw e;
      } finally {
        if (finished) {
          await c.query('RESET enable_sort').then(
            () => letGo(c),
            (e: unknown) => letGo(c, e instanceof Error ? e : new Error(String(e))),
          );
        } else {
          // Stopped early: cancel the COPY where it runs, then drop the connection (its protocol
          // state is mid-COPY, so it cannot go back to the pool).
          await pool
            .query('SELECT pg_cancel_backend($1)', [(c as unknown as { processID: number }).processID])
            .catch(() => undefined);
          stream?.destroy();
          letGo(c, failed instanceof Error ? failed : new Error('copy stopped'));
        }
      }
    },
    adapter: new PrismaPg(pool),
    async close() {
      await listening.close();
      await pool.end();
    },
  };
  return db;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
