/**
 * The dedicated LISTEN connection of the Postgres backend (lib/store/engine/db.ts). LISTEN needs one
 * session that stays open, so it cannot come from the pool; when the server drops it (restart,
 * failover, an operator's pg_terminate_backend) it reconnects with backoff and LISTENs again on
 * every channel that still has handlers. Notifications sent while it was away are not replayed:
 * live events are a feed, the envelopes themselves are in the tables.
 */
import pg from 'pg';
import { StoreClosedError } from './errors';

export interface PgListener {
  /** LISTEN on `channel`; resolves (once the session listens) to an unsubscribe function. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  /** True while the session is connected (false between a lost connection and the reconnect). */
  readonly connected: boolean;
  close(): Promise<void>;
}

/** Reconnect delays: doubling from `minMs` to `maxMs`. */
export function createListener(
  url: string,
  backoff: { minMs: number; maxMs: number } = { minMs: 100, maxMs: 5_000 },
): PgListener {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = backoff.minMs;
  let closed = false;

  const listenSql = (channel: string, verb: 'LISTEN' | 'UNLISTEN') => `${verb} ${pg.escapeIdentifier(channel)}`;

  async function connect(): Promise<pg.Client> {
    if (closed) throw new StoreClosedError();
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      for (const fn of handlers.get(n.channel) ?? []) fn(n.payload ?? '');
    });
    try {
      await c.connect();
      for (const channel of handlers.keys()) await c.query(listenSql(channel, 'LISTEN'));
    } catch (e) {
      await c.end().catch(() => undefined);
      throw e;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      throw new StoreClosedError();
    }
    client = c;
    delay = backoff.minMs;
    return c;
  }

  function ensure(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  function lost(c: pg.Client): void {
    if (client !== c) return; // an attempt that never took over, or already handled
    client = undefined;
    void c.end().catch(() => undefined);
    schedule();
  }

  function schedule(): void {
    if (closed || retry || handlers.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      ensure().catch(() => schedule());
    }, delay);
    retry.unref?.();
    delay = Math.min(delay * 2, backoff.maxMs);
  }

  return {
    async listen(channel, fn) {
      let set = handlers.get(channel);
      if (!set) {
        const fresh = new Set<(payload: string) => void>();
        set = fresh;
        handlers.set(channel, fresh);
        try {
          // A new session LISTENs on every channel in `handlers`, this one included.
          if (client) await client.query(listenSql(channel, 'LISTEN'));
          else await ensure();
        } catch (e) {
          if (handlers.get(channel) === fresh && fresh.size === 0) handlers.delete(channel);
          throw e;
        }
      }
      const mine = set;
      mine.add(fn);
      return async () => {
        mine.delete(fn);
        if (mine.size === 0 && handlers.get(channel) === mine) {
          handlers.delete(channel);
          await client?.query(listenSql(channel, 'UNLISTEN')).catch(() => undefined);
        }
      };
    },
    get connected() {
      return client !== undefined;
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      retry = undefined;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
