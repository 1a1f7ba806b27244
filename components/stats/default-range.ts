/**
 * Which range /stats opens on when the link names none. A window mostly before the first
 * observation draws its data in the last few pixels, so the default is the longest window that
 * observed data fills at least half of; a store younger than half an hour opens on the hour,
 * the shortest window there is. "all" is never the default: it fits any store by construction
 * and so says nothing about how long the data runs. Browser-safe and pure.
 */
import type { StatsRange } from '../../lib/wire/stats';

const WINDOW_S: ReadonlyArray<readonly [StatsRange, number]> = [
  ['7d', 7 * 86_400],
  ['24h', 86_400],
  ['1h', 3_600],
];

/** Share of a window the data must cover to be the default. */
export const MIN_COVER = 0.5;

export interface RangeChoice {
  range: StatsRange;
  /** One short line: which range and why. */
  why: string;
}

/** "3 d 4 h", "2 h 5 min", "12 min": the observed span, rounded down. */
export function spanText(s: number): string {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/**
 * `observedFromMs`: start of the first minute the store holds anything for (null: nothing yet).
 */
export function defaultStatsRange(observedFromMs: number | null, nowMs: number): RangeChoice {
  if (observedFromMs === null)
    return { range: '1h', why: 'Showing 1h by default: nothing is observed yet, and the hour fills first.' };
  const span = Math.max(0, (nowMs - observedFromMs) / 1000);
  const pct = (w: number) => `${Math.min(100, Math.floor((100 * span) / w))} %`;
  for (const [k, [range, w]] of WINDOW_S.entries()) {
    if (span < w * MIN_COVER) continue;
    const longer = WINDOW_S[k - 1];
    const why = longer
      ? `Showing ${range} by default: data covers ${pct(w)} of it (${spanText(span)}` +
        ` observed); ${longer[0]} would be ${pct(longer[1])} filled.`
      : `Showing ${range} by default: data covers ${pct(w)} of it (${spanText(span)} observed).`;
    return { range, why };
  }
  return {
    range: '1h',
    why: `Showing 1h by default: only ${spanText(span)} observed so far, so even the shortest range is mostly blank.`,
  };
}
