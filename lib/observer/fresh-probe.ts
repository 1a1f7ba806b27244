/**
 * A liveness probe that a health endpoint can ask as often as it is polled without waiting
 * behind the thing it probes. The embedded database (PGlite) runs one query at a time and the
 * embedded chain shares the machine's cores with the app, so a probe issued while an epoch's
 * batch of writes, a release export or a burst of RPC traffic is in progress waits its turn:
 * /api/health then reports that queue, hundreds of milliseconds, rather than liveness.
 *
 * So a successful answer is reused while it is younger than `freshMs`; once it is older than
 * `refreshMs` the next call starts one new probe in the background (never more than one at a
 * time) and still returns at once. Without a fresh success (first call, last probe failed, or
 * the last success is older than `freshMs`) the caller waits for the probe, so a database or
 * chain that stops answering is reported within `freshMs` plus the caller's own timeout, and a
 * failure is never served from memory.
 */
/** /api/health reuses a successful probe this long (its counts and slot are at most this stale)… */
export const HEALTH_FRESH_MS = 2_000;
/** …and retakes one older than this in the background. */
export const HEALTH_REFRESH_MS = 250;

/**
 * `p`, or a rejection naming `what` after `ms`: probes are shared between callers (one at a
 * time), so one that never answers must not hold every later health request with it.
 */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    t = setTimeout(
      () => reject(Object.assign(new Error(`${what} did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([p, late]).finally(() => clearTimeout(t));
}

export interface FreshProbeOptions<T> {
  /** Whether an answer counts as a success that may be reused. */
  isOk: (value: T) => boolean;
  /** A success younger than this is returned without waiting. */
  freshMs: number;
  /** A success older than this starts a background probe when asked for. */
  refreshMs: number;
  now?: () => number;
}

export interface FreshProbe<T> {
  /**
   * The latest answer per the rules above; `{ wait: true }` always waits for a probe. `reused`
   * says the answer is a remembered one (so it proves nothing new about the probed thing).
   */
  get(opts?: { wait?: boolean }): Promise<{ value: T; reused: boolean }>;
}

export function freshProbe<T>(run: () => Promise<T>, o: FreshProbeOptions<T>): FreshProbe<T> {
  if (!(o.refreshMs >= 0 && o.freshMs >= o.refreshMs))
    throw new RangeError('freshProbe: need 0 <= refreshMs <= freshMs');
  const now = o.now ?? Date.now;
  let last: { value: T; at: number } | null = null;
  let inflight: Promise<T> | null = null;
  const start = (): Promise<T> =>
    (inflight ??= (async () => {
      try {
        const value = await run();
        last = o.isOk(value) ? { value, at: now() } : null;
        return value;
      } catch (e) {
        last = null;
        throw e;
      } finally {
        inflight = null;
      }
    })());
  return {
    get(opts) {
      const ok = last;
      if (ok && !opts?.wait) {
        const age = now() - ok.at;
        if (age < o.freshMs) {
          if (age >= o.refreshMs) start().catch(() => undefined); // the next caller sees the failure
          return Promise.resolve({ value: ok.value, reused: true });
        }
      }
      return start().then((value) => ({ value, reused: false }));
    },
  };
}
