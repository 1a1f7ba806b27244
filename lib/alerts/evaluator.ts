/**
 * The alert evaluator: the I/O shell around the alert conditions (conditions/, pure). Per
 * envelope it does one map lookup: the live bus's `message` event sets the sender's last-seen time
 * if the sender is watched (and drops, reputation updates, disputes and slashes are noted the same
 * way, O(1) each). Everything else runs on a timer (every `tickMs`, and soon after each chain
 * event of the indexer): the chain tables are read once per tick for all watched agents (lease,
 * batch, challenge: one query each), each condition gives a status per (watchlist, agent,
 * subject) — firing or not, with a sentence and its figures — and reconcile.ts decides, against
 * the open alerts held in memory, which to open and which to clear: new firing ones are inserted
 * in one statement (the store's unique key makes it idempotent), open ones that stopped firing are
 * cleared in one statement, and their webhook deliveries are queued in one more, the three in one
 * transaction (tick-write.ts).
 */

import { fromHex, toHex } from '../protocol/hex';
import type { AlertsStore } from '../store';
import { agentDisplayName } from '../wire/agent-name';
import type { LiveEvent } from '../wire/events';
import { batchMismatch, batchMissing, batchQuery } from './conditions/batch';
import { challengeConditions } from './conditions/challenge';
import { dropsRate } from './conditions/drops';
import { dispute, slashed } from './conditions/events';
import type { ConditionInput } from './conditions/input';
import { leaseConditions } from './conditions/lease';
import { offline } from './conditions/offline';
import { type ReputationSample, reputationDrop } from './conditions/reputation';
import { type AlertKind, EVENT_KINDS } from './kinds';
import { reconcile } from './reconcile';
import { keyOf, type OpenAlert, type Status, writeTick } from './tick-write';
import { anyRule, buildWatchSet, EMPTY_WATCH_SET, type WatchSet } from './watch-set';

export { LEASE_GRACE_EPOCHS } from './conditions/lease';

export interface EvaluatorOptions {
  store: AlertsStore;
  subscribe(listener: (e: LiveEvent) => void): () => void;
  epochSeconds: number;
  now?: () => number;
  /** Timer period, ms (default 5,000). */
  tickMs?: number;
  /** Alerts one rule of one watchlist may open per hour before further ones are stored undelivered. */
  ruleAlertsPerHour: number;
  /** Webhook deliveries per watchlist per hour. */
  deliveriesPerHour: number;
  /** Called after deliveries were queued. */
  onQueued?: () => void;
  log?: { warn(msg: string): void };
}

/** Drops counted per agent in six 10-second buckets (the last minute). */
class DropWindow {
  buckets = new Uint32Array(6);
  stamp = 0;
  add(t: number): void {
    this.roll(t);
    this.buckets[Math.floor(t / 10_000) % 6]++;
  }
  roll(t: number): void {
    const slot = Math.floor(t / 10_000);
    if (slot - this.stamp >= 6) this.buckets.fill(0);
    else for (let s = this.stamp + 1; s <= slot; s++) this.buckets[s % 6] = 0;
    if (slot > this.stamp) this.stamp = slot;
  }
  count(t: number): number {
    this.roll(t);
    let n = 0;
    for (const b of this.buckets) n += b;
    return n;
  }
}

export interface Evaluator {
  /** Re-reads watchlists, rules and items before the next tick (the API calls it after a change). */
  invalidate(): void;
  /** Re-reads the watch set now if it changed (events before that are matched against the old one). */
  refresh(): Promise<void>;
  /** One evaluation now; resolves when its alerts are stored and their deliveries queued. */
  tick(): Promise<{ opened: number; cleared: number }>;
  /** Counts a dropped envelope of `senderHex` (the observer's drop hook). */
  dropped(senderHex: string): void;
  /** Watched agents (for the bench's figures). */
  watchedCount(): number;
  stop(): Promise<void>;
}

/** What the evaluator remembers between ticks: the watch set, the bus's notes, the open alerts. */
interface Memory {
  watch: WatchSet;
  /** Last envelope time per watched agent (hex) — the one per-envelope write. */
  seen: Map<string, number>;
  labels: Map<string, string | null>;
  drops: Map<string, DropWindow>;
  reputation: Map<string, ReputationSample[]>;
  /** Event statuses from the bus (dispute, slashed), for the next tick. */
  queued: Status[];
  open: Map<string, OpenAlert>;
  /** Keys of event alerts ever opened: never again for the same subject. */
  eventKeys: Set<string>;
  /** lease_grace's remembered state (conditions/lease.ts). */
  graceLong: Map<string, number>;
  loadedOpen: boolean;
  /** The name every page shows (SATI name, else the label derived from the id). */
  name(agentHex: string): string;
}

function newMemory(): Memory {
  const labels = new Map<string, string | null>();
  return {
    watch: EMPTY_WATCH_SET,
    seen: new Map(),
    labels,
    drops: new Map(),
    reputation: new Map(),
    queued: [],
    open: new Map(),
    eventKeys: new Set(),
    graceLong: new Map(),
    loadedOpen: false,
    name: (a) => agentDisplayName(a, labels.get(a)),
  };
}

/** The bus listener. True when an indexer event asks for an evaluation soon. */
function onLiveEvent(m: Memory, e: LiveEvent): boolean {
  if (e.type === 'message') {
    const s = e.data.sender;
    if (m.watch.watchAll || m.seen.has(s)) m.seen.set(s, e.at);
    return false;
  }
  switch (e.type) {
    case 'reputation_update': {
      const a = e.data.agent;
      if (!m.watch.watchAll && !m.seen.has(a)) return false;
      let r = m.reputation.get(a);
      if (!r) m.reputation.set(a, (r = []));
      r.push([e.at, BigInt(e.data.reputation.reliabilityScore)]);
      if (r.length > 2_000) r.splice(0, r.length - 2_000);
      return false;
    }
    case 'dispute_raised':
      m.queued.push(...dispute(e.data, m.watch, m.name));
      return false;
    case 'stake_slashed':
      m.queued.push(...slashed(e.data, m.watch, m.name));
      return true;
    case 'agent_deactivated':
    case 'lease_paid':
    case 'batch_submitted':
    case 'challenge_submitted':
    case 'challenge_resolved':
      return true;
    case 'agent_joined':
      if (m.watch.watchAll && !m.seen.has(e.data.agent)) m.seen.set(e.data.agent, e.at);
      return false;
    default:
      return false;
  }
}

/** Reads the watch set, and the watched agents' names and last-seen times. */
async function reload(store: AlertsStore, m: Memory): Promise<void> {
  const watch = buildWatchSet(await store.watchState());
  m.watch = watch;
  for (const a of [...m.seen.keys()]) if (!watch.watchAll && !watch.named.has(a)) m.seen.delete(a);
  const rows = await store.agentsSeen(watch.watchAll ? null : [...watch.named].map(fromHex));
  for (const r of rows) {
    const a = toHex(r.agent);
    m.labels.set(a, r.label);
    const t = r.lastSeen.getTime();
    if ((m.seen.get(a) ?? -1) < t) m.seen.set(a, t);
  }
  // A watched agent never seen yet: no last-seen time, so no offline alert until it speaks.
  for (const a of watch.named) if (!m.seen.has(a)) m.seen.set(a, Number.NaN);
}

async function loadOpen(store: AlertsStore, m: Memory): Promise<void> {
  const rows = await store.alertKeys([...EVENT_KINDS]);
  m.open.clear();
  for (const r of rows) {
    const k = keyOf(r.watchlistId, toHex(r.agent), r.kind, r.subject);
    if (r.open) m.open.set(k, { id: r.id, throttled: false });
    if (EVENT_KINDS.has(r.kind as AlertKind)) m.eventKeys.add(k);
  }
  m.loadedOpen = true;
}

/**
 * One tick's reads (one query per chain table a rule needs) and the conditions over them, in a
 * fixed order. The watch set is read afresh after each read (a reload may land meanwhile).
 */
async function statuses(store: AlertsStore, m: Memory, t: number, es: number): Promise<Status[]> {
  const out: Status[] = m.queued.splice(0, m.queued.length);
  const cur = BigInt(Math.floor(t / 1000 / es));
  const x = (): ConditionInput => ({ t, es, cur, watch: m.watch, open: m.open, name: m.name });
  const agentsArg = m.watch.watchAll ? null : [...m.seen.keys()].map(fromHex);
  if (anyRule(m.watch, 'offline')) out.push(...offline(m.seen, x()));

  const needLease = anyRule(m.watch, 'lease_due', 'lease_grace', 'deactivated', 'batch_missing');
  const leases = needLease ? await store.leasesOf(agentsArg) : [];
  const lease = leaseConditions(leases, x(), m.graceLong);
  m.graceLong = lease.graceLong;
  out.push(...lease.statuses);

  if (anyRule(m.watch, 'batch_missing', 'batch_mismatch')) {
    const q = batchQuery(m.open, cur);
    const batches = await store.batchesOf(agentsArg, q.from, q.also);
    out.push(...batchMismatch(batches, x()), ...batchMissing(leases, batches, x()));
  }
  if (anyRule(m.watch, 'challenged', 'challenge_resolved'))
    out.push(...challengeConditions(await store.challengesOf(agentsArg, new Date(t - 86_400_000)), x()));
  if (anyRule(m.watch, 'reputation_drop')) {
    const r = reputationDrop(m.reputation, x());
    m.reputation = r.samples;
    out.push(...r.statuses);
  }
  if (anyRule(m.watch, 'drops_rate')) {
    const counts = new Map<string, number>();
    for (const [a, w] of m.drops) counts.set(a, w.count(t));
    out.push(...dropsRate(counts, x()));
    for (const [a, n] of counts) if (n === 0) m.drops.delete(a);
  }
  return out;
}

/** Re-reads the watch set when it changed; one reload at a time, again after a failed one. */
function reloader(store: AlertsStore, m: Memory): { refresh(): Promise<void>; invalidate(): void } {
  let dirty = true;
  let reloading: Promise<void> | null = null;
  return {
    invalidate: () => {
      dirty = true;
    },
    refresh() {
      if (reloading) return reloading;
      if (!dirty) return Promise.resolve();
      dirty = false;
      reloading = reload(store, m)
        .catch((e) => {
          dirty = true;
          throw e;
        })
        .finally(() => {
          reloading = null;
        });
      return reloading;
    },
  };
}

async function evaluate(
  o: EvaluatorOptions,
  m: Memory,
  now: () => number,
  refresh: () => Promise<void>,
): Promise<Tally> {
  await refresh();
  if (!m.loadedOpen) await loadOpen(o.store, m);
  const t = now();
  const { fresh, clear } = reconcile(await statuses(o.store, m, t, o.epochSeconds), m);
  const w = await writeTick(o, m, t, fresh, clear).catch((e: unknown) => {
    // Rolled back: the open alerts are read again, so nothing the tick meant to write is lost.
    m.loadedOpen = false;
    throw e;
  });
  if (w.reload) m.loadedOpen = false;
  return { opened: w.opened, cleared: w.cleared };
}

type Tally = { opened: number; cleared: number };

/**
 * Evaluations one at a time. `tick` is a fresh one: after the one running, if any (so it sees what
 * happened before the call). `background` is the timer's and the indexer events': one more at most
 * while one runs (they never pile up).
 */
function serialRunner(evaluate: () => Promise<Tally>, log: EvaluatorOptions['log']) {
  let running: Promise<Tally> | null = null;
  let again = false;
  let stopped = false;
  function tick(): Promise<Tally> {
    if (stopped) return Promise.resolve({ opened: 0, cleared: 0 });
    if (running) return running.catch(() => undefined).then(() => tick());
    running = evaluate().finally(() => {
      running = null;
      if (again) {
        again = false;
        background();
      }
    });
    return running;
  }
  function background(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    tick().catch((e: unknown) => log?.warn(`alert evaluation failed: ${String(e)}`));
  }
  return {
    tick,
    background,
    stopped: () => stopped,
    /** No evaluation starts after this; resolves when the running one ends. */
    stop(): Promise<unknown> {
      stopped = true;
      return running?.catch(() => undefined) ?? Promise.resolve();
    },
  };
}

/** A one-shot timer that calls `fn` `ms` after it is armed; arming it again meanwhile does nothing. */
function coalescing(ms: number, fn: () => void): { arm(): void; cancel(): void } {
  let timer: NodeJS.Timeout | null = null;
  return {
    arm() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        fn();
      }, ms);
      timer.unref?.();
    },
    cancel() {
      if (timer) clearTimeout(timer);
    },
  };
}

export function startEvaluator(o: EvaluatorOptions): Evaluator {
  const now = o.now ?? Date.now;
  const m = newMemory();
  const watch = reloader(o.store, m);
  const run = serialRunner(() => evaluate(o, m, now, watch.refresh), o.log);
  // An evaluation shortly after an indexer event (several events in a burst make one).
  const soon = coalescing(250, run.background);
  const refreshSoon = coalescing(20, () => {
    void watch.refresh().catch((e: unknown) => o.log?.warn(`alert watch set reload failed: ${String(e)}`));
  });
  const unsubscribe = o.subscribe((e) => {
    if (onLiveEvent(m, e) && !run.stopped()) soon.arm();
  });
  const timer = setInterval(run.background, o.tickMs ?? 5_000);
  timer.unref?.();

  return {
    invalidate() {
      watch.invalidate();
      // Soon, so that the bus's events meet the new watch set before the next tick.
      if (!run.stopped()) refreshSoon.arm();
    },
    refresh: watch.refresh,
    tick: run.tick,
    dropped(senderHex) {
      if (!m.watch.watchAll && !m.seen.has(senderHex)) return;
      let w = m.drops.get(senderHex);
      if (!w) m.drops.set(senderHex, (w = new DropWindow()));
      w.add(now());
    },
    watchedCount: () => m.seen.size,
    async stop() {
      const ended = run.stop();
      clearInterval(timer);
      soon.cancel();
      refreshSoon.cancel();
      unsubscribe();
      await ended;
    },
  };
}
