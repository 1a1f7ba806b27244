/**
 * The alert evaluator. Per envelope it does one map lookup: the live bus's `message` event sets
 * the sender's last-seen time if the sender is watched (and drops, reputation updates, disputes
 * and slashes are noted the same way, O(1) each). Everything else runs on a timer (every
 * `tickMs`, and soon after each chain event of the indexer): the chain tables are read once per
 * tick for all watched agents (lease, batch, challenge: one query each), each enabled rule gives
 * a status per (watchlist, agent, subject) — firing or not, with a sentence and its figures —
 * and the statuses are reconciled with the open alerts held in memory: new firing ones are
 * inserted in one statement (the store's unique key makes it idempotent), open ones that stopped
 * firing are cleared in one statement, and their webhook deliveries are queued in one more, the
 * three in one transaction (tick-write.ts).
 */

import { fromHex, toHex } from '../protocol/hex';
import type { AlertsStore } from '../store';
import { agentDisplayName } from '../wire/agent-name';
import type { LiveEvent } from '../wire/events';
import { scorePoints } from '../wire/score';
import { type AlertKind, EVENT_KINDS, isAlertKind, LEASE_GRACE_HYSTERESIS, ruleParams } from './kinds';
import { keyOf, type OpenAlert, type Status, whyOf, writeTick } from './tick-write';

/** Unpaid epochs a lease may have before the tick deactivates it (lib/chain lease program). */
export const LEASE_GRACE_EPOCHS = 3n;

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

interface ListState {
  id: string;
  allAgents: boolean;
  rules: Map<AlertKind, Record<string, unknown>>;
  /** Watched agents (hex) → when they were added, ms. */
  agents: Map<string, number>;
  /** Watched conversations (hex) → when they were added, ms. */
  convs: Map<string, number>;
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

const iso = (ms: number) => new Date(ms).toISOString();
const fixed = (v: bigint | number) => scorePoints(BigInt(v), 3);

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

export function startEvaluator(o: EvaluatorOptions): Evaluator {
  const now = o.now ?? Date.now;
  const es = o.epochSeconds;
  const lists = new Map<string, ListState>();
  /** Lists per watched agent, and the lists that watch every agent (so a tick is O(watched pairs)). */
  const byAgent = new Map<string, ListState[]>();
  let allLists: ListState[] = [];
  /** Last envelope time per watched agent (hex) — the one per-envelope write. */
  const seen = new Map<string, number>();
  let watchAll = false;
  const labels = new Map<string, string | null>();
  const drops = new Map<string, DropWindow>();
  const reputation = new Map<string, Array<[number, bigint]>>();
  const queued: Status[] = [];
  const open = new Map<string, OpenAlert>();
  /** Keys of event alerts ever opened: never again for the same subject. */
  const eventKeys = new Set<string>();
  /** lease_grace keys → the last evaluation that saw the lease in grace past the open threshold (kinds.ts LEASE_GRACE_HYSTERESIS). */
  const graceLong = new Map<string, number>();
  let dirty = true;
  let loadedOpen = false;
  let stopped = false;
  let running: Promise<{ opened: number; cleared: number }> | null = null;

  // The name every page shows (SATI name, else the label derived from the id).
  const name = (a: string) => agentDisplayName(a, labels.get(a));
  const watchedBy = (agent: string): ListState[] => [
    ...(byAgent.get(agent) ?? []),
    ...allLists.filter((l) => !l.agents.has(agent)),
  ];

  const unsubscribe = o.subscribe((e) => {
    if (e.type === 'message') {
      const s = e.data.sender;
      if (watchAll || seen.has(s)) seen.set(s, e.at);
      return;
    }
    switch (e.type) {
      case 'reputation_update': {
        const a = e.data.agent;
        if (!watchAll && !seen.has(a)) return;
        let r = reputation.get(a);
        if (!r) reputation.set(a, (r = []));
        r.push([e.at, BigInt(e.data.reputation.reliabilityScore)]);
        if (r.length > 2_000) r.splice(0, r.length - 2_000);
        return;
      }
      case 'dispute_raised': {
        const d = e.data;
        for (const l of lists.values()) {
          if (!l.rules.has('dispute')) continue;
          for (const a of [d.sender, d.recipient]) {
            if (l.allAgents || l.agents.has(a))
              queued.push({
                wl: l.id,
                agent: a,
                kind: 'dispute',
                subject: d.conversationId,
                firing: true,
                why: `${name(d.disputant)} raised a DISPUTE in conversation ${d.conversationId} (envelope ${d.envelopeId.slice(0, 16)}…), where ${name(a)} is ${a === d.sender ? 'the sender' : 'the recipient'}`,
              });
          }
          if (l.convs.has(d.conversationId) && !l.agents.has(d.sender) && !l.agents.has(d.recipient)) {
            queued.push({
              wl: l.id,
              agent: d.disputant,
              kind: 'dispute',
              subject: d.conversationId,
              firing: true,
              why: `${name(d.disputant)} raised a DISPUTE in watched conversation ${d.conversationId} (envelope ${d.envelopeId.slice(0, 16)}…)`,
            });
          }
        }
        return;
      }
      case 'stake_slashed': {
        const d = e.data;
        for (const l of watchedBy(d.agentHex)) {
          if (!l.rules.has('slashed')) continue;
          queued.push({
            wl: l.id,
            agent: d.agentHex,
            kind: 'slashed',
            subject: d.signature,
            firing: true,
            why: `stake of ${name(d.agentHex)} slashed: ${d.amount} base units of USDC (${d.reward} to the challenger, ${d.toTreasury} to the treasury), transaction ${d.signature.slice(0, 16)}… at slot ${d.slot}`,
          });
        }
        soon();
        return;
      }
      case 'agent_deactivated':
      case 'lease_paid':
      case 'batch_submitted':
      case 'challenge_submitted':
      case 'challenge_resolved':
        soon();
        return;
      case 'agent_joined':
        if (watchAll && !seen.has(e.data.agent)) seen.set(e.data.agent, e.at);
        return;
      default:
    }
  });

  /** An evaluation shortly after an indexer event (several events in a burst make one). */
  let soonTimer: NodeJS.Timeout | null = null;
  function soon(): void {
    if (soonTimer || stopped) return;
    soonTimer = setTimeout(() => {
      soonTimer = null;
      background();
    }, 250);
    soonTimer.unref?.();
  }

  async function reload(): Promise<void> {
    const st = await o.store.watchState();
    lists.clear();
    for (const l of st.lists)
      lists.set(l.id, { id: l.id, allAgents: l.allAgents, rules: new Map(), agents: new Map(), convs: new Map() });
    for (const r of st.rules)
      if (isAlertKind(r.kind)) lists.get(r.watchlistId)?.rules.set(r.kind, ruleParams(r.kind, r.params));
    for (const i of st.items) {
      const l = lists.get(i.watchlistId);
      if (!l) continue;
      (i.kind === 'agent' ? l.agents : l.convs).set(toHex(i.target), i.addedAt.getTime());
    }
    watchAll = [...lists.values()].some((l) => l.allAgents);
    allLists = [...lists.values()].filter((l) => l.allAgents);
    byAgent.clear();
    for (const l of lists.values()) {
      for (const a of l.agents.keys()) {
        const x = byAgent.get(a);
        if (x) x.push(l);
        else byAgent.set(a, [l]);
      }
    }
    const want = new Set<string>();
    for (const l of lists.values()) for (const a of l.agents.keys()) want.add(a);
    for (const a of [...seen.keys()]) if (!watchAll && !want.has(a)) seen.delete(a);
    const rows = await o.store.agentsSeen(watchAll ? null : [...want].map(fromHex));
    for (const r of rows) {
      const a = toHex(r.agent);
      labels.set(a, r.label);
      const t = r.lastSeen.getTime();
      if ((seen.get(a) ?? -1) < t) seen.set(a, t);
    }
    // A watched agent never seen yet: no last-seen time, so no offline alert until it speaks.
    for (const a of want) if (!seen.has(a)) seen.set(a, Number.NaN);
  }

  async function loadOpen(): Promise<void> {
    const rows = await o.store.alertKeys([...EVENT_KINDS]);
    open.clear();
    for (const r of rows) {
      const k = keyOf(r.watchlistId, toHex(r.agent), r.kind, r.subject);
      if (r.open) open.set(k, { id: r.id, throttled: false });
      if (EVENT_KINDS.has(r.kind as AlertKind)) eventKeys.add(k);
    }
    loadedOpen = true;
  }

  /** Every list's agents for one rule kind, with the list's params. */
  function* watchers(
    kind: AlertKind,
    agent: string,
  ): Generator<{ l: ListState; p: Record<string, unknown>; addedAt: number }> {
    for (const l of byAgent.get(agent) ?? []) {
      const p = l.rules.get(kind);
      if (p) yield { l, p, addedAt: l.agents.get(agent)! };
    }
    for (const l of allLists) {
      const p = l.rules.get(kind);
      if (p && !l.agents.has(agent)) yield { l, p, addedAt: 0 };
    }
  }
  const anyRule = (...kinds: AlertKind[]) => [...lists.values()].some((l) => kinds.some((k) => l.rules.has(k)));

  async function statuses(t: number): Promise<Status[]> {
    const out: Status[] = queued.splice(0, queued.length);
    const cur = BigInt(Math.floor(t / 1000 / es));
    const agentsArg = watchAll ? null : [...seen.keys()].map(fromHex);
    const emit = (
      wl: string,
      agent: string,
      kind: AlertKind,
      subject: string,
      firing: Status['firing'],
      why: () => string,
    ) => out.push({ wl, agent, kind, subject, firing, why });

    // offline: the in-memory last-seen times.
    if (anyRule('offline')) {
      for (const [a, last] of seen) {
        if (Number.isNaN(last)) continue;
        for (const { l, p } of watchers('offline', a)) {
          const mins = (t - last) / 60_000;
          const limit = p.minutes as number;
          emit(l.id, a, 'offline', '', mins >= limit, () =>
            mins >= limit
              ? `no envelope from ${name(a)} for ${mins.toFixed(1)} min (last at ${iso(last)}); the rule alerts after ${limit} min`
              : `${name(a)} sent an envelope at ${iso(last)}, ${mins.toFixed(1)} min ago (under ${limit} min)`,
          );
        }
      }
    }

    const needLease = anyRule('lease_due', 'lease_grace', 'deactivated', 'batch_missing');
    const leases = needLease ? await o.store.leasesOf(agentsArg) : [];
    const leaseOf = new Map(leases.map((r) => [toHex(r.agent), r]));
    const openAfterS = LEASE_GRACE_HYSTERESIS.openAfterEpochs * es;
    const quietAfterS = LEASE_GRACE_HYSTERESIS.quietEpochs * es;
    for (const r of leases) {
      const a = toHex(r.agent);
      const pt = r.paidThrough;
      const endMs = Number(pt + 1n) * es * 1000;
      const unpaid = cur > pt ? cur - pt : 0n;
      for (const { l, p } of watchers('lease_due', a)) {
        const hours = (endMs - t) / 3_600_000;
        const limit = p.hours as number;
        const firing = r.active && hours <= limit;
        emit(l.id, a, 'lease_due', '', firing, () =>
          firing
            ? `lease of ${name(a)} is paid through epoch ${pt}, which ends at ${iso(endMs)} (${hours >= 0 ? `in ${hours.toFixed(2)} h` : `${(-hours).toFixed(2)} h ago`}; the rule alerts within ${limit} h)`
            : r.active
              ? `lease of ${name(a)} paid through epoch ${pt}, ending ${iso(endMs)}, in ${hours.toFixed(2)} h`
              : `lease of ${name(a)} is deactivated (paid through epoch ${pt})`,
        );
      }
      // Debounced (kinds.ts LEASE_GRACE_HYSTERESIS): in grace since the start of epoch pt + 1 = endMs.
      const inGraceS = (t - endMs) / 1000;
      const long = r.active && unpaid > 0n && inGraceS >= openAfterS;
      for (const { l } of watchers('lease_grace', a)) {
        const k = keyOf(l.id, a, 'lease_grace', '');
        if (long) graceLong.set(k, t);
        else if (!open.has(k)) graceLong.delete(k);
        else if (!graceLong.has(k)) graceLong.set(k, t); // opened before a restart: hold from now
        const quietS = (t - (graceLong.get(k) ?? t)) / 1000;
        const firing = long ? true : !open.has(k) || !r.active || pt > cur || quietS >= quietAfterS ? false : 'hold';
        if (firing === false) graceLong.delete(k);
        emit(l.id, a, 'lease_grace', '', firing, () =>
          long
            ? `lease of ${name(a)} is paid through epoch ${pt} and the current epoch is ${cur}: ${unpaid} unpaid epoch${unpaid === 1n ? '' : 's'} in grace for ${inGraceS.toFixed(0)} s (deactivated after ${LEASE_GRACE_EPOCHS})`
            : !r.active
              ? `lease of ${name(a)} left grace deactivated (paid through epoch ${pt}, current epoch ${cur})`
              : pt > cur
                ? `lease of ${name(a)} paid through epoch ${pt} (current epoch ${cur})`
                : `lease of ${name(a)} paid through epoch ${pt} (current epoch ${cur}), not in grace for ${openAfterS} s or more during the last ${quietAfterS} s`,
        );
      }
      for (const { l } of watchers('deactivated', a)) {
        emit(l.id, a, 'deactivated', '', !r.active, () =>
          !r.active
            ? `lease of ${name(a)} is deactivated on chain (paid through epoch ${pt}, current epoch ${cur}, ${unpaid} unpaid)`
            : `lease of ${name(a)} is active again, paid through epoch ${pt}`,
        );
      }
    }

    if (anyRule('batch_missing', 'batch_mismatch')) {
      const from = cur - 4n;
      const also: Array<{ agent: Uint8Array; epoch: bigint }> = [];
      for (const k of open.keys()) {
        const [, agent, kind, subject] = k.split('|');
        if ((kind === 'batch_missing' || kind === 'batch_mismatch') && BigInt(subject) < from)
          also.push({ agent: fromHex(agent), epoch: BigInt(subject) });
      }
      const batches = await o.store.batchesOf(agentsArg, from, also);
      const batchOf = new Map(batches.map((b) => [`${toHex(b.agent)}|${b.epoch}`, b]));
      for (const b of batches) {
        const a = toHex(b.agent);
        for (const { l, addedAt } of watchers('batch_mismatch', a)) {
          if (
            Number(b.epoch + 1n) * es * 1000 < addedAt &&
            !open.has(keyOf(l.id, a, 'batch_mismatch', String(b.epoch)))
          )
            continue;
          emit(l.id, a, 'batch_mismatch', String(b.epoch), b.status === 'mismatch', () =>
            b.status === 'mismatch'
              ? `the batch ${name(a)} submitted for epoch ${b.epoch} (slot ${b.slot}) does not match its uploaded epoch log: the merkle root or the counts differ`
              : `the batch of epoch ${b.epoch} is now ${b.status}`,
          );
        }
      }
      for (const [a, lease] of leaseOf) {
        for (const { l, p, addedAt } of watchers('batch_missing', a)) {
          const grace = (p.graceSeconds as number | undefined) ?? Math.max(30, es);
          const epochs = new Set<bigint>();
          for (let e = cur - 3n; e < cur; e++) if (e >= 0n) epochs.add(e);
          for (const k of open.keys()) {
            const [wl, agent, kind, subject] = k.split('|');
            if (wl === l.id && agent === a && kind === 'batch_missing') epochs.add(BigInt(subject));
          }
          for (const e of epochs) {
            const endMs = Number(e + 1n) * es * 1000;
            const b = batchOf.get(`${a}|${e}`);
            const key = keyOf(l.id, a, 'batch_missing', String(e));
            if (b) {
              emit(
                l.id,
                a,
                'batch_missing',
                String(e),
                false,
                () => `${name(a)} submitted the batch of epoch ${e} (slot ${b.slot}, ${b.status})`,
              );
              continue;
            }
            if (open.has(key)) continue;
            // Only epochs the agent paid for, that ended after it was watched, past their grace.
            if (e > lease.paidThrough || endMs < addedAt || t < endMs + grace * 1000) continue;
            emit(
              l.id,
              a,
              'batch_missing',
              String(e),
              true,
              () =>
                `${name(a)} submitted no batch for epoch ${e}, which ended at ${iso(endMs)}, ${((t - endMs) / 1000).toFixed(0)} s ago (grace ${grace} s)`,
            );
          }
        }
      }
    }

    if (anyRule('challenged', 'challenge_resolved')) {
      const chs = await o.store.challengesOf(agentsArg, new Date(t - 86_400_000));
      for (const c of chs) {
        const target = toHex(c.agent),
          challenger = toHex(c.challenger);
        for (const [a, role] of [
          [target, 'target'],
          [challenger, 'challenger'],
        ] as const) {
          for (const { l } of watchers('challenged', a)) {
            const pending = c.status === 'pending';
            emit(l.id, a, 'challenged', c.address, pending, () =>
              pending
                ? role === 'target'
                  ? `${name(a)}'s batch of epoch ${c.epoch} is challenged (challenge ${c.address})`
                  : `${name(a)} challenged the batch of epoch ${c.epoch} of ${name(target)} (challenge ${c.address})`
                : `challenge ${c.address} resolved: ${c.status}`,
            );
          }
          for (const { l, addedAt } of watchers('challenge_resolved', a)) {
            if (c.status === 'pending' || c.updatedAt.getTime() < addedAt) continue;
            emit(
              l.id,
              a,
              'challenge_resolved',
              c.address,
              true,
              () =>
                `challenge ${c.address} of the batch of epoch ${c.epoch} of ${name(target)} resolved: ${c.status}${role === 'challenger' ? ` (${name(a)} was the challenger)` : ''}`,
            );
          }
        }
      }
    }

    if (anyRule('reputation_drop')) {
      for (const [a, samples] of reputation) {
        for (const { l, p } of watchers('reputation_drop', a)) {
          const since = t - (p.windowMinutes as number) * 60_000;
          let max = -1n;
          for (const [at, v] of samples) if (at >= since && v > max) max = v;
          const curv = samples[samples.length - 1][1];
          const fell = max - curv;
          const limit = BigInt(Math.round((p.drop as number) * 1e6)); // points to fixed point (at most 6 decimals)
          emit(l.id, a, 'reputation_drop', '', fell > limit, () =>
            fell > limit
              ? `reliability of ${name(a)} fell from ${fixed(max)} to ${fixed(curv)} within ${p.windowMinutes} min (by ${fixed(fell)}, more than ${fixed(limit)})`
              : `reliability of ${name(a)} is ${fixed(curv)}, within ${fixed(limit)} of its ${p.windowMinutes}-min high ${fixed(max)}`,
          );
        }
        const oldest = t - 7 * 86_400_000;
        while (samples.length > 1 && samples[0][0] < oldest) samples.shift();
      }
    }

    if (anyRule('drops_rate')) {
      for (const [a, w] of drops) {
        const n = w.count(t);
        for (const { l, p } of watchers('drops_rate', a)) {
          const limit = p.perMinute as number;
          emit(l.id, a, 'drops_rate', '', n > limit, () =>
            n > limit
              ? `${n} envelopes from ${name(a)} were dropped by validation in the last minute (the rule alerts above ${limit})`
              : `${n} envelopes from ${name(a)} dropped in the last minute (at or under ${limit})`,
          );
        }
        if (n === 0) drops.delete(a);
      }
    }
    return out;
  }

  let reloading: Promise<void> | null = null;
  function refresh(): Promise<void> {
    if (reloading) return reloading;
    if (!dirty) return Promise.resolve();
    dirty = false;
    reloading = reload()
      .catch((e) => {
        dirty = true;
        throw e;
      })
      .finally(() => {
        reloading = null;
      });
    return reloading;
  }
  let refreshTimer: NodeJS.Timeout | null = null;

  async function evaluate(): Promise<{ opened: number; cleared: number }> {
    await refresh();
    if (!loadedOpen) await loadOpen();
    const t = now();
    const st = await statuses(t);
    const fresh: Array<Status> = [];
    const clear: Array<{ key: string; id: bigint; why: string; kind: string; throttled: boolean }> = [];
    const firingNow = new Set<string>();
    const clearing = new Set<string>();
    for (const s of st) {
      const k = keyOf(s.wl, s.agent, s.kind, s.subject);
      if (s.firing === 'hold') {
        if (open.has(k)) firingNow.add(k);
        continue;
      }
      if (s.firing) {
        if (firingNow.has(k)) continue;
        firingNow.add(k);
        if (!open.has(k) && !(EVENT_KINDS.has(s.kind) && eventKeys.has(k))) fresh.push(s);
      } else {
        const a = open.get(k);
        if (a && !firingNow.has(k) && !clearing.has(k)) {
          clearing.add(k);
          clear.push({ key: k, id: a.id, why: whyOf(s), kind: s.kind, throttled: a.throttled });
        }
      }
    }
    // Alerts whose rule was turned off or whose agent is no longer watched clear too.
    for (const [k, a] of open) {
      if (firingNow.has(k) || clearing.has(k)) continue;
      const [wl, agent, kind] = k.split('|');
      const l = lists.get(wl);
      const ruleOn = l?.rules.has(kind as AlertKind);
      const watched = l && (l.allAgents || l.agents.has(agent) || (kind === 'dispute' && l.convs.size > 0));
      if (!ruleOn || !watched)
        clear.push({
          key: k,
          id: a.id,
          why: !ruleOn ? `the ${kind} rule was turned off` : `${name(agent)} is no longer watched`,
          kind,
          throttled: a.throttled,
        });
    }

    const w = await writeTick(o, { open, eventKeys, graceLong }, t, fresh, clear).catch((e: unknown) => {
      // Rolled back: the open alerts are read again, so nothing the tick meant to write is lost.
      loadedOpen = false;
      throw e;
    });
    if (w.reload) loadedOpen = false;
    return { opened: w.opened, cleared: w.cleared };
  }

  /** A fresh evaluation: after the one running, if any (so it sees what happened before the call). */
  function tick(): Promise<{ opened: number; cleared: number }> {
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
  /** The timer's and the indexer events' evaluations: one more at most while one runs (they never pile up). */
  let again = false;
  function background(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    tick().catch((e: unknown) => o.log?.warn(`alert evaluation failed: ${String(e)}`));
  }

  const timer = setInterval(background, o.tickMs ?? 5_000);
  timer.unref?.();

  return {
    invalidate() {
      dirty = true;
      // Soon, so that the bus's events meet the new watch set before the next tick.
      if (refreshTimer || stopped) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        void refresh().catch((e: unknown) => o.log?.warn(`alert watch set reload failed: ${String(e)}`));
      }, 20);
      refreshTimer.unref?.();
    },
    refresh,
    tick,
    dropped(senderHex) {
      if (!watchAll && !seen.has(senderHex)) return;
      let w = drops.get(senderHex);
      if (!w) drops.set(senderHex, (w = new DropWindow()));
      w.add(now());
    },
    watchedCount: () => seen.size,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (soonTimer) clearTimeout(soonTimer);
      if (refreshTimer) clearTimeout(refreshTimer);
      unsubscribe();
      await running?.catch(() => undefined);
    },
  };
}
