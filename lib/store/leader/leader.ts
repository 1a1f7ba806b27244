/**
 * Leadership of the work that must run once per deployment (docs/architecture.md "Running on
 * several machines"): the chain indexer, the dataset release writer and the alert evaluator.
 * Each role is a Postgres session-level advisory lock held on a dedicated connection (not a
 * pooled one: a pooled connection goes back to the pool and its session with it). The process
 * holding the lock runs the role's work; every other process of the role is a standby that
 * retries `pg_try_advisory_lock` every `retryMs` on its own connection.
 *
 * Hand-over: Postgres releases a session lock when the session ends. A leader that dies closes
 * its socket (the kernel does it on SIGKILL too), the backend ends at once and a standby takes
 * the lock at its next try (≤ `retryMs`). A leader that cannot reach Postgres any more, or that
 * stops answering (a half-open TCP connection, a frozen host, a partition) is ended by Postgres
 * itself: the lock session runs with `idle_session_timeout = sessionTimeoutMs`, and the leader
 * pings it every `pingMs`, so a session that heard nothing for that long is terminated and the
 * lock released. The leader gives up before that: when no ping sent in the last `stopAfterMs`
 * was answered it stops its work and drops the connection, so the old leader has stopped before
 * Postgres lets anyone else in (`stopAfterMs` < `sessionTimeoutMs`, timed from the sending of the
 * last answered ping, which is before the server's idle clock starts). Server-side TCP keepalives
 * are set short as well, for servers older than Postgres 14 (no `idle_session_timeout`).
 *
 * A step already under way when leadership is lost (a release being written, a webhook being
 * posted) may finish during the stop; the workers' writes are idempotent (a release exists once
 * its manifest does, an alert once per unique key, an outbox row is claimed before it is sent),
 * so the new leader starts from what is stored. The embedded PGlite is one process: there the
 * caller passes no URL and the process is always the leader.
 */
import pg from 'pg';

/** The roles that run once per deployment, and the objid of each one's advisory lock. */
export const LEADER_ROLES = { indexer: 1, releases: 2, alerts: 3 } as const;
export type LeaderRole = keyof typeof LEADER_ROLES;

/**
 * The classid of every leadership lock: `pg_try_advisory_lock(LEADER_LOCK_CLASS, objid)`, the
 * two-key form, which Postgres keeps apart from the one-bigint keys the migrations and partitions
 * use. In pg_locks: `locktype = 'advisory' AND classid = 31352 AND objsubid = 2`.
 */
export const LEADER_LOCK_CLASS = 0x7a78; // "zx"

export const LEADER_DEFAULTS = { retryMs: 1_000, pingMs: 1_000, stopAfterMs: 3_000, sessionTimeoutMs: 5_000 };

/** The work of a role while this process leads it. */
export interface LeaderWork {
  stop(): Promise<void>;
}

export interface LeaderOptions {
  role: LeaderRole;
  /** The Postgres URL; undefined for the embedded PGlite (one process: always the leader, see leadRole). */
  url?: string;
  /** Starts the role's work; called each time this process becomes the leader. */
  start(): Promise<LeaderWork> | LeaderWork;
  /** How often a standby tries the lock, ms. */
  retryMs?: number;
  /** How often the leader pings its lock session, ms. */
  pingMs?: number;
  /** No answered ping sent in this long: the leader stops its work, ms (< sessionTimeoutMs). */
  stopAfterMs?: number;
  /** Postgres ends a lock session that sent nothing for this long (idle_session_timeout), ms. */
  sessionTimeoutMs?: number;
  log?: { info(msg: string): void; warn(msg: string): void };
}

export interface LeaderStatus {
  role: LeaderRole;
  /** True while this process holds the role's lock and runs its work. */
  leading: boolean;
  /** When this process last became the leader (ISO), or null. */
  since: string | null;
  /** How many times this process became the leader. */
  terms: number;
  /** The last connection or start failure, if any. */
  lastError: string | null;
}

export interface Leadership {
  readonly role: LeaderRole;
  /** True while this process holds the lock and has heard from its session within `stopAfterMs`. */
  readonly leading: boolean;
  status(): LeaderStatus;
  /** Resolves when this process leads (its work started). */
  whenLeading(): Promise<void>;
  /** Stops the work (if leading) and releases the lock. */
  stop(): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Runs `start`'s work while this process holds the role's lock (module comment). */
export function lead(o: LeaderOptions): Leadership {
  return new RoleLeader(o);
}

class RoleLeader implements Leadership {
  readonly role: LeaderRole;
  private readonly c: typeof LEADER_DEFAULTS;
  private readonly st: LeaderStatus;
  private work: LeaderWork | null = null;
  private client: pg.Client | null = null;
  private stopped = false;
  /** When the last answered query on the lock session was sent (ms). */
  private lastOkSent = 0;
  private pinging = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  /** Start and stop of the work, one at a time. */
  private transition: Promise<void> = Promise.resolve();
  private readonly waiters: (() => void)[] = [];
  /** Settles once the first try for the lock is over (and the work started if it was taken). */
  readonly firstTry: Promise<void>;

  constructor(private readonly o: LeaderOptions) {
    if (!o.url) throw new TypeError('lead needs a Postgres URL (leadRole runs the work alone without one)');
    this.role = o.role;
    this.c = { ...LEADER_DEFAULTS, ...definedOf(o) };
    if (!(this.c.stopAfterMs < this.c.sessionTimeoutMs))
      throw new RangeError(
        'stopAfterMs must be below sessionTimeoutMs: the leader stops before Postgres lets another in',
      );
    this.st = { role: o.role, leading: false, since: null, terms: 0, lastError: null };
    this.firstTry = this.tryLock();
  }

  get leading(): boolean {
    return this.st.leading && this.work !== null && Date.now() - this.lastOkSent <= this.c.stopAfterMs;
  }

  status(): LeaderStatus {
    return { ...this.st, leading: this.st.leading && this.work !== null };
  }

  whenLeading(): Promise<void> {
    if (this.st.leading && this.work !== null) return Promise.resolve();
    return new Promise<void>((r) => void this.waiters.push(r));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.serial(async () => {
      this.st.leading = false;
      await this.stopWork();
      const cl = this.client;
      // Ending the session releases the lock; a standby takes it at its next try. A connection
      // that no longer answers is not waited for: its socket is destroyed after a second.
      const ended = cl?.end().catch(() => undefined);
      await Promise.race([ended, new Promise((r) => setTimeout(r, 1_000).unref?.())]);
      this.dropClient();
    });
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    this.transition = this.transition.then(fn, fn);
    return this.transition;
  }

  private async stopWork(): Promise<void> {
    const w = this.work;
    this.work = null;
    await w?.stop().catch((e: unknown) => this.o.log?.warn(`leader ${this.role}: stop failed: ${message(e)}`));
  }

  private async becomeLeader(): Promise<void> {
    const st = this.st;
    st.leading = true;
    st.since = new Date().toISOString();
    st.terms++;
    try {
      this.work = await this.o.start();
    } catch (e) {
      st.lastError = `start failed: ${message(e)}`;
      this.o.log?.warn(`leader ${this.role}: ${st.lastError}; releasing the lock`);
      st.leading = false;
      this.dropClient();
      return;
    }
    if (!st.leading || this.stopped) {
      // Lost (or stopped) while starting: what was started stops now.
      await this.stopWork();
      return;
    }
    this.o.log?.info(`leader ${this.role}: this process leads (term ${st.terms})`);
    for (const w of this.waiters.splice(0)) w();
  }

  /** Leaves leadership: the work stops, the session ends (releasing the lock), then standby. */
  private lose(why: string): Promise<void> {
    if (!this.st.leading) return this.transition;
    // Marked at once: a start still under way sees it and stops what it started.
    this.st.leading = false;
    this.st.lastError = why;
    this.o.log?.warn(`leader ${this.role}: leadership lost (${why}); stopping its work`);
    this.dropClient();
    return this.serial(async () => {
      await this.stopWork();
      this.schedule();
    });
  }

  private clearWatchdog(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  private dropClient(): void {
    const cl = this.client;
    this.client = null;
    this.clearWatchdog();
    // Destroying the socket ends the session at once (no Terminate round trip to wait for).
    (cl as unknown as { connection?: { stream?: { destroy(): void } } } | null)?.connection?.stream?.destroy();
    void cl?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const cl = new pg.Client({
      connectionString: this.o.url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
      query_timeout: this.c.stopAfterMs,
      application_name: `zerox1 leader ${this.role}`,
    });
    cl.on('error', (e) => this.onLost(cl, e));
    cl.on('end', () => this.onLost(cl, new Error('connection ended')));
    await cl.connect();
    // Postgres ends the session (and releases the lock) when no ping arrives (module comment);
    // Postgres before 14 has no idle_session_timeout and relies on the keepalives alone.
    await cl.query(`SET idle_session_timeout = ${this.c.sessionTimeoutMs}`).catch(() => undefined);
    await cl.query('SET tcp_keepalives_idle = 2; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2');
    return cl;
  }

  private onLost(cl: pg.Client, e: unknown): void {
    if (this.client !== cl) return;
    if (this.st.leading) void this.lose(`lock connection lost: ${message(e)}`);
    else this.dropClient();
  }

  private async tryLock(): Promise<void> {
    if (this.stopped || this.st.leading) return;
    try {
      this.client ??= await this.connect();
      const sent = Date.now();
      const q = await this.client.query('SELECT pg_try_advisory_lock($1, $2) AS ok', [
        LEADER_LOCK_CLASS,
        LEADER_ROLES[this.role],
      ]);
      if (!q.rows[0]?.ok) return this.schedule();
      if (this.stopped) return this.dropClient();
      this.lastOkSent = sent;
      this.watchdog = setInterval(() => this.ping(), this.c.pingMs);
      this.watchdog.unref?.();
      await this.serial(() => this.becomeLeader());
      if (!this.st.leading) this.schedule();
    } catch (e) {
      this.st.lastError = message(e);
      this.dropClient();
      this.schedule();
    }
  }

  /** The leader's heartbeat: gives up when no answered ping is recent enough (module comment). */
  private ping(): void {
    const cl = this.client;
    if (!cl || !this.st.leading) return;
    if (Date.now() - this.lastOkSent > this.c.stopAfterMs) {
      void this.lose(`no answer from the lock session in ${this.c.stopAfterMs} ms`);
      return;
    }
    // One ping at a time: a slow answer is waited for (up to query_timeout), not queued behind.
    if (this.pinging) return;
    this.pinging = true;
    const sent = Date.now();
    cl.query('SELECT 1')
      .then(
        () => {
          if (this.client === cl) this.lastOkSent = Math.max(this.lastOkSent, sent);
        },
        (e: unknown) => {
          if (this.client === cl) void this.lose(`ping failed: ${message(e)}`);
        },
      )
      .finally(() => {
        this.pinging = false;
      });
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tryLock();
    }, this.c.retryMs);
    this.timer.unref?.();
  }
}

function definedOf(o: LeaderOptions): Partial<typeof LEADER_DEFAULTS> {
  const out: Partial<typeof LEADER_DEFAULTS> = {};
  for (const k of Object.keys(LEADER_DEFAULTS) as (keyof typeof LEADER_DEFAULTS)[])
    if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/**
 * `lead` on Postgres, returning once the first try for the lock is over (the work runs if it was
 * taken); without a URL (the embedded PGlite, one process) the work starts now, its start failure
 * is the caller's, and the process leads until stopped.
 */
export async function leadRole(o: LeaderOptions): Promise<Leadership> {
  if (o.url !== undefined) {
    // A process alone on its database leads at its first try: its work is running on return.
    const l = new RoleLeader(o);
    await l.firstTry;
    return l;
  }
  let work: LeaderWork | null = await o.start();
  const since = new Date().toISOString();
  return {
    role: o.role,
    get leading() {
      return work !== null;
    },
    status: () => ({ role: o.role, leading: work !== null, since, terms: 1, lastError: null }),
    whenLeading: () => Promise.resolve(),
    async stop() {
      const w = work;
      work = null;
      await w?.stop();
    },
  };
}
