/**
 * Two lanes in front of embedded PGlite. PGlite runs every statement on the process's one thread,
 * one at a time, in the order the statements arrive. Under a flood of heavy reads (a replay page
 * of 1,000 envelopes, a collusion window) that order puts each small statement of a page render,
 * the health probe or the ingest behind every heavy statement queued before it, so a page that
 * runs ten small statements waits for up to ten heavy ones.
 *
 * Statements issued in the background lane ({@link inBackgroundLane}: the server puts heavy reads
 * there) therefore go to PGlite one at a time, and only when no foreground statement is waiting
 * or running, or after waiting `maxWaitMs`, so a steady foreground (the demo's ingest never
 * stops) delays a heavy read by a bounded amount instead of starving it. A small read then waits
 * for at most one heavy statement. A Postgres server runs statements on many backends at once
 * and needs none of this; the lanes only mark which work may wait.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const lane = new AsyncLocalStorage<'background'>();

/** Runs `fn` with every store statement it issues (and everything it awaits) in the background lane. */
export function inBackgroundLane<T>(fn: () => T): T {
  return lane.run('background', fn);
}

/** Whether the caller runs in the background lane. */
export function inBackground(): boolean {
  return lane.getStore() === 'background';
}

export interface LaneGate {
  /** Runs a foreground statement now; background statements wait while any is waiting or running. */
  foreground<T>(run: () => Promise<T>): Promise<T>;
  /** Runs a background statement alone, once the foreground is idle or after `maxWaitMs`. */
  background<T>(run: () => Promise<T>): Promise<T>;
  /** Statements waiting in the background lane now. */
  readonly waiting: number;
}

/** Longest a background statement waits for an idle foreground before it runs anyway. */
export const BACKGROUND_MAX_WAIT_MS = 250;

export function createLaneGate(maxWaitMs = BACKGROUND_MAX_WAIT_MS): LaneGate {
  let foreground = 0;
  let backgroundRunning = false;
  const queue: { since: number; go: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let checkScheduled = false;

  const admit = () => {
    const next = queue.shift();
    if (!next) return;
    backgroundRunning = true;
    next.go();
  };
  // Called whenever the foreground empties or a background statement ends or arrives.
  const pump = () => {
    if (backgroundRunning || queue.length === 0) return;
    if (foreground === 0) {
      // One event-loop turn first: the code that issued the last foreground statement often
      // issues the next one as soon as it has the rows.
      if (checkScheduled) return;
      checkScheduled = true;
      setImmediate(() => {
        checkScheduled = false;
        if (!backgroundRunning && foreground === 0) admit();
        else pump();
      });
      return;
    }
    if (timer) return;
    const oldest = queue[0];
    if (!oldest) return;
    const left = Math.max(0, oldest.since + maxWaitMs - performance.now());
    timer = setTimeout(() => {
      timer = undefined;
      if (!backgroundRunning && queue.length > 0) {
        const head = queue[0];
        if (head && performance.now() - head.since >= maxWaitMs) admit();
        else pump();
      }
    }, left);
  };

  return {
    async foreground(run) {
      foreground++;
      try {
        return await run();
      } finally {
        foreground--;
        if (foreground === 0) pump();
      }
    },
    async background(run) {
      await new Promise<void>((go) => {
        queue.push({ since: performance.now(), go });
        pump();
      });
      try {
        return await run();
      } finally {
        backgroundRunning = false;
        if (timer) {
          clearTimeout(timer);
          timer = undefined;
        }
        pump();
      }
    },
    get waiting() {
      return queue.length;
    },
  };
}
