/**
 * When the stats ingest leaves in stats_pending (stats.ts) reach the rollups: one fold at a
 * time, on a timer after ingest, before a chart read (so a chart shows what this process
 * stored), on close, and at open for rows a crashed process left.
 */
import type { Queryable } from '../engine/db';
import { foldStats } from './stats';

/**
 * How long ingested stats wait in stats_pending before the store folds them (stats.ts), ms. A
 * fold's cost grows with the intervals and services it touches, not with the envelopes, so
 * fewer folds cost ingest less; a chart this process serves folds first, so only a chart
 * served by another process can lag by this much.
 */
export const STATS_FOLD_MS = 2_000;

export interface StatsFolder {
  /** Keep the stats rollups as envelopes are stored. */
  readonly rollups: boolean;
  /** Folds what is pending now (after a fold already running); the rows folded. */
  fold(): Promise<number>;
  /** Whether a chart read must fold first: stats are pending or a fold is running. */
  due(): boolean;
  /** Ingest stored envelopes: their stats are pending, folded on the timer. */
  stored(): void;
  /** Before close: stops the timer and folds what is pending (a failure is logged; the next open folds). */
  flush(): Promise<void>;
}

export function statsFolder(
  db: Queryable,
  o: {
    rollups: boolean;
    foldMs: number;
    isClosed: () => boolean;
    log?: { info(msg: string): void; warn(msg: string): void };
  },
): StatsFolder {
  const { rollups, foldMs, isClosed, log } = o;
  let pendingStats = rollups;
  let folding: Promise<number> | null = null;
  let foldTimer: NodeJS.Timeout | undefined;
  let foldFailing = false;
  const fold = (): Promise<number> => {
    if (folding) return folding.then(() => (pendingStats ? fold() : 0));
    pendingStats = false;
    const run = foldStats(db)
      .then(
        (n) => {
          if (foldFailing) log?.info('store: stats folded again');
          foldFailing = false;
          return n;
        },
        (e) => {
          pendingStats = true;
          throw e;
        },
      )
      .finally(() => {
        folding = null;
      });
    folding = run;
    return run;
  };
  const scheduleFold = () => {
    if (!rollups || foldMs <= 0 || foldTimer || isClosed()) return;
    foldTimer = setTimeout(() => {
      foldTimer = undefined;
      if (isClosed() || !pendingStats) return;
      fold().catch((e) => {
        // The rows stay pending: the next timer, read or ingest tries again.
        if (!foldFailing)
          log?.warn(`store: folding the stats failed (${e instanceof Error ? e.message : String(e)}); retrying`);
        foldFailing = true;
        scheduleFold();
      });
    }, foldMs);
    foldTimer.unref?.();
  };
  scheduleFold();
  return {
    rollups,
    fold,
    due: () => pendingStats || folding !== null,
    stored: () => {
      pendingStats = true;
      scheduleFold();
    },
    flush: async () => {
      if (foldTimer) clearTimeout(foldTimer);
      if (rollups && (pendingStats || folding))
        await fold().catch((e) =>
          log?.warn(
            `store: folding the stats on close failed (` +
              `${e instanceof Error ? e.message : String(e)}); the next open folds them`,
          ),
        );
    },
  };
}
