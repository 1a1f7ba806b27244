/**
 * When releases are written (docs/datasets.md "Releases"): the release window, the settle time,
 * revisions of epochs whose parts still move, retries with backoff, and the status /api/health shows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHex } from '../protocol/hex';
import type { SignerRegistry } from '../protocol/types';
import type { ExportSource } from '../store/export';
import type { ReleaseChain } from './chain-evidence';
import { tableRows } from './export';
import { anchorRelease, createRelease, RELEASE_PAGE_ROWS, type ReleaseStore } from './release';
import { lateChanges } from './release-late';
import { anchorName, manifestFiles, type ReleaseAnchorer, type ReleaseManifest } from './release-manifest';
import type { SigningKey } from './signing';

export interface ReleaseScheduler {
  /** Stops the timer and waits for a release being written. */
  stop(): Promise<void>;
  /** Runs one check now (tests); returns the epochs released. */
  tick(): Promise<number[]>;
  /** What /api/health reports about releases. */
  status(): ReleaseStatus;
}

/** The release scheduler's state as /api/health reports it (docs/datasets.md "Releases"). */
export interface ReleaseStatus {
  /** The newest release this process wrote. */
  lastRelease: { epoch: number; at: string } | null;
  /** The latest failed attempt, with its error. */
  lastError: { epoch: number; at: string; error: string } | null;
  /** Failed attempts since the process started. */
  failures: number;
  /** Epochs whose release failed and waits for its next try, oldest first. */
  retrying: { epoch: number; attempts: number; nextTry: string }[];
  /** Rows left out of this process's releases because a value did not fit its column. */
  setAside: number;
  /** Epochs a release may be made for now: [first, last]; epochs with data outside are never released. */
  window: { first: number; last: number };
  /** The key every manifest is signed with (signing.ts), null when releases are unsigned. */
  signingKey: { publicKey: string; signer: string } | null;
}

/**
 * Epochs that began before this instant (2025-01-01T00:00:00Z, before the 0x01 mesh carried
 * traffic) are never released: a sender chooses its own timestamp, so an envelope dated 1970
 * says nothing about an epoch that happened.
 */
export const RELEASE_FLOOR_MS = Date.UTC(2025, 0, 1);
/**
 * The stated time after which an epoch's release is final whatever still moves: a week after the
 * epoch ends (a challenge window or a negotiation without a deadline may stay open for good).
 */
export const RELEASE_SETTLE_MS = 7 * 86_400_000;
/** Unsettled epochs looked at per check (each look re-derives the epoch's negotiations). */
export const REVISION_CHECKS_PER_TICK = 16;

/**
 * What still moves in `epoch` at `asOfUs`: pending challenges and open negotiations (as a release would record them).
 */
export async function movingParts(
  source: ExportSource,
  epoch: number,
  asOfUs: bigint,
): Promise<ReleaseManifest['moving']> {
  const e = BigInt(source.epochSeconds) * 1_000_000n;
  const filter = { fromUs: BigInt(epoch) * e, toUs: BigInt(epoch + 1) * e };
  const pendingChallenges: string[] = [];
  const openNegotiations: string[] = [];
  for await (const page of tableRows({ source, table: 'challenges', filter, pageSize: RELEASE_PAGE_ROWS }))
    for (const r of page) if (r.status === 'pending') pendingChallenges.push(String(r.address));
  for await (const page of tableRows({
    source,
    table: 'negotiations',
    filter,
    nowUs: asOfUs,
    pageSize: RELEASE_PAGE_ROWS,
  }))
    for (const r of page) if (r.outcome === 'open') openNegotiations.push(toHex(r.conversation_id as Uint8Array));
  return { pendingChallenges: pendingChallenges.sort(), openNegotiations: openNegotiations.sort() };
}

/** Retry delays of a failed release: 5 s, doubling up to 15 minutes. */
export const RELEASE_RETRY_MS = 5_000;
export const RELEASE_RETRY_MAX_MS = 15 * 60_000;

/**
 * The epochs a release may be made for at `nowMs`: those that began at or after `floorMs` and
 * ended at least one whole epoch ago by the observer's clock (so their batches, submitted after
 * the boundary, and uploaded logs are in). A sender writes its own timestamp, so an epoch that
 * merely has an envelope (one dated 1970 lands in epoch 0, one at 2^64-1 µs in the last int4
 * epoch) is not a reason to release it. Old epochs inside the window are released however long
 * the observer was down, and so is a database another observer filled.
 */
export function releaseWindow(
  nowMs: number,
  epochSeconds: number,
  floorMs = RELEASE_FLOOR_MS,
): { first: number; last: number } {
  const epochMs = epochSeconds * 1000;
  const current = Math.floor(nowMs / epochMs);
  return { first: Math.max(0, Math.ceil(floorMs / epochMs)), last: current - 2 };
}

/**
 * Releases every finished epoch inside the release window (releaseWindow) that has envelopes and
 * no manifest yet. Checks run a second after start, then just after every epoch boundary, at
 * least hourly (or every `everyMs`). A release that fails is retried on its own with backoff
 * (RELEASE_RETRY_MS doubling to RELEASE_RETRY_MAX_MS) while the epochs after it go on being
 * released; every failure is counted and the latest one kept for /api/health (`status`).
 */
export function startReleaseScheduler(p: {
  store: ReleaseStore;
  dir: string;
  registry?: SignerRegistry;
  chain?: ReleaseChain;
  everyMs?: number;
  now?: () => number;
  floorMs?: number;
  retryMs?: number;
  retryMaxMs?: number;
  firstCheckMs?: number;
  /** Signs every manifest (signing.ts); its public key is reported in `status()`. */
  signingKey?: SigningKey;
  /** Anchors every release on chain once signed; a failed anchor is retried at the next check. */
  anchor?: ReleaseAnchorer;
  /** After the epoch's end plus this, its release is made final whatever still moves (default RELEASE_SETTLE_MS). */
  settleMs?: number;
  onError?: (e: unknown, epoch: number, attempts: number) => void;
  onRelease?: (m: ReleaseManifest) => void;
}): ReleaseScheduler {
  const source = p.store.exportSource('release');
  const now = () => p.now?.() ?? Date.now();
  const retryMs = p.retryMs ?? RELEASE_RETRY_MS;
  const retryMaxMs = p.retryMaxMs ?? RELEASE_RETRY_MAX_MS;
  const failing = new Map<number, { attempts: number; nextTry: number }>();
  const st = {
    lastRelease: null as ReleaseStatus['lastRelease'],
    lastError: null as ReleaseStatus['lastError'],
    failures: 0,
    setAside: 0,
  };
  let running: Promise<number[]> | null = null;
  let stopped = false;
  const window = () => releaseWindow(now(), source.epochSeconds, p.floorMs);
  const settleMs = p.settleMs ?? RELEASE_SETTLE_MS;
  const epochMs = source.epochSeconds * 1000;
  let reviseCursor = 0;
  let lateCursor = 0;
  const release =
    (epoch: number, o: { asOfUs: bigint; revision?: number; final?: boolean; reasons?: string[] }) => () =>
      createRelease({
        store: p.store,
        epoch,
        dir: p.dir,
        registry: p.registry,
        chain: p.chain,
        signingKey: p.signingKey,
        anchor: p.anchor,
        ...o,
      });
  /** Records a release (first or revision) or its failure. */
  const attempt = async (epoch: number, make: () => Promise<ReleaseManifest>, made: number[]) => {
    const f = failing.get(epoch);
    if (f && f.nextTry > now()) return;
    try {
      const m = await make();
      failing.delete(epoch);
      st.lastRelease = { epoch, at: new Date(now()).toISOString() };
      st.setAside += Object.values(m.tables).reduce((n, t) => n + (t.setAside ?? 0), 0);
      made.push(epoch);
      p.onRelease?.(m);
    } catch (e) {
      const attempts = (f?.attempts ?? 0) + 1;
      failing.set(epoch, { attempts, nextTry: now() + Math.min(retryMs * 2 ** (attempts - 1), retryMaxMs) });
      st.failures++;
      st.lastError = { epoch, at: new Date(now()).toISOString(), error: e instanceof Error ? e.message : String(e) };
      p.onError?.(e, epoch, attempts);
    }
  };
  const tick = () =>
    (running ??= (async () => {
      const w = window();
      const made: number[] = [];
      if (w.last < w.first) return made;
      const released = manifestFiles(p.dir);
      for (const epoch of await source.epochs(w.first, w.last)) {
        if (stopped) break;
        if (released.has(epoch)) continue;
        await attempt(epoch, release(epoch, { asOfUs: BigInt(now()) * 1000n }), made);
      }
      // Anchors that could not be posted when their release was written (in revision order).
      if (p.anchor) {
        for (const [epoch, names] of released) {
          for (const name of names) {
            if (stopped || existsSync(join(p.dir, anchorName(name)))) continue;
            await attempt(epoch, async () => {
              await anchorRelease(p.dir, name, p.anchor!);
              return JSON.parse(readFileSync(join(p.dir, name), 'utf8')) as ReleaseManifest;
            }, []);
          }
        }
      }
      // Final states: a released epoch whose moving parts were still moving gets a revision once
      // one of them has settled, and a final one once its settle time has passed. A bounded number
      // of epochs is looked at per check, in turn, as each look re-derives the epoch's negotiations.
      const unsettled: { epoch: number; name: string; m: ReleaseManifest }[] = [];
      for (const [epoch, names] of released) {
        const name = names[names.length - 1];
        const m = JSON.parse(readFileSync(join(p.dir, name), 'utf8')) as ReleaseManifest;
        if (m.manifestVersion >= 3 && !m.final) unsettled.push({ epoch, name, m });
      }
      unsettled.sort((a, b) => a.epoch - b.epoch);
      const look =
        unsettled.length <= REVISION_CHECKS_PER_TICK
          ? unsettled
          : Array.from(
              { length: REVISION_CHECKS_PER_TICK },
              (_, i) => unsettled[(reviseCursor + i) % unsettled.length],
            );
      reviseCursor = unsettled.length ? (reviseCursor + look.length) % unsettled.length : 0;
      const revised = new Set<number>();
      for (const u of look) {
        if (stopped) break;
        const asOfUs = BigInt(now()) * 1000n;
        const due = now() >= (u.epoch + 1) * epochMs + settleMs;
        const moving = due ? null : await movingParts(source, u.epoch, asOfUs);
        const settled =
          moving === null
            ? []
            : [
                ...u.m.moving.pendingChallenges
                  .filter((c) => !moving.pendingChallenges.includes(c))
                  .map((c) => `challenge ${c} is no longer pending`),
                ...u.m.moving.openNegotiations
                  .filter((c) => !moving.openNegotiations.includes(c))
                  .map((c) => `negotiation ${c} is no longer open`),
              ];
        if (!due && settled.length === 0) continue;
        revised.add(u.epoch);
        await attempt(
          u.epoch,
          release(u.epoch, {
            asOfUs,
            revision: u.m.revision + 1,
            final: due,
            reasons: due ? ['the settle time passed: final'] : settled,
          }),
          made,
        );
      }
      // Late data: every released epoch in turn (final ones too), its store counts and batch
      // verdicts against its latest manifest; a difference is a new revision naming it.
      const latest = [...manifestFiles(p.dir)].filter(([e]) => !revised.has(e)).sort((a, b) => a[0] - b[0]);
      const lateLook =
        latest.length <= REVISION_CHECKS_PER_TICK
          ? latest
          : Array.from({ length: REVISION_CHECKS_PER_TICK }, (_, i) => latest[(lateCursor + i) % latest.length]);
      lateCursor = latest.length ? (lateCursor + lateLook.length) % latest.length : 0;
      for (const [epoch, names] of lateLook) {
        if (stopped) break;
        const m = JSON.parse(readFileSync(join(p.dir, names[names.length - 1]), 'utf8')) as ReleaseManifest;
        if (m.manifestVersion < 3 || failing.has(epoch)) continue;
        const reasons = await lateChanges(source, m);
        if (reasons.length === 0) continue;
        const due = now() >= (epoch + 1) * epochMs + settleMs;
        await attempt(
          epoch,
          release(epoch, {
            asOfUs: BigInt(now()) * 1000n,
            revision: m.revision + 1,
            final: m.final || due,
            reasons: ['late data', ...reasons],
          }),
          made,
        );
      }
      // Failed epochs that fell out of the window are no longer retried.
      for (const epoch of failing.keys()) if (epoch < w.first) failing.delete(epoch);
      return made;
    })().finally(() => {
      running = null;
    }));
  const check = () =>
    tick().catch((e: unknown) => {
      // the epochs read itself failed
      st.failures++;
      st.lastError = {
        epoch: -1,
        at: new Date(now()).toISOString(),
        error: e instanceof Error ? e.message : String(e),
      };
      p.onError?.(e, -1, 0);
    });
  // Checks run just after each epoch boundary (or every `everyMs`): finding the epochs with
  // envelopes reads the table, so once per epoch, not on a short timer, unless a failed
  // release's retry is due sooner. The first check, a second after start, catches up on epochs
  // that ended while the server was down.
  const next = () => {
    // At least hourly: long epochs would overflow setTimeout's 2^31 ms.
    let ms = p.everyMs ?? Math.min(epochMs - (Date.now() % epochMs) + 500, 3_600_000);
    for (const f of failing.values()) ms = Math.min(ms, Math.max(f.nextTry - now(), 0) + 50);
    return ms;
  };
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      void check().then(() => {
        if (!stopped) schedule(next());
      });
    }, ms);
    timer.unref();
  };
  schedule(p.firstCheckMs ?? Math.min(next(), 1_000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
    tick,
    status: () => ({
      ...st,
      retrying: [...failing]
        .sort((a, b) => a[0] - b[0])
        .map(([epoch, f]) => ({ epoch, attempts: f.attempts, nextTry: new Date(f.nextTry).toISOString() })),
      window: window(),
      signingKey: p.signingKey ? { publicKey: p.signingKey.publicKey, signer: p.signingKey.signer } : null,
    }),
  };
}
