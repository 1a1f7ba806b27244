/**
 * The start-up timeline of the one process: when each phase ended, in ms since the process
 * started (Node's performance clock begins at process start, before any module loads). It is
 * logged at debug level as it grows, summarised at info level once the first envelope is
 * stored, and served in /api/health as `startup`, so `npm run bench:startup` and a person
 * reading the health answer see where the seconds before a live page go.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from './logger';

export interface StartupPhase {
  phase: string;
  /** ms since the process started. */
  ms: number;
}

export interface StartupTimeline {
  /** Records that `phase` ended now; a phase is recorded once (the first call wins). */
  mark(phase: string): void;
  has(phase: string): boolean;
  phases(): readonly StartupPhase[];
}

/** The phase whose mark makes the timeline log its summary line. */
export const FIRST_ENVELOPE = 'first envelope stored';

export function createStartupTimeline(
  log?: Pick<Logger, 'debug' | 'info'>,
  now: () => number = () => performance.now(),
): StartupTimeline {
  const list: StartupPhase[] = [];
  const seen = new Set<string>();
  return {
    mark(phase) {
      if (seen.has(phase)) return;
      seen.add(phase);
      const ms = Math.max(0, Math.round(now()));
      list.push({ phase, ms });
      log?.debug(`startup: ${phase} at ${ms} ms`);
      if (phase === FIRST_ENVELOPE)
        log?.info(`startup: ${list.map((p) => `${p.phase} ${(p.ms / 1000).toFixed(1)} s`).join(', ')}`);
    },
    has: (phase) => seen.has(phase),
    phases: () => list.slice(),
  };
}
