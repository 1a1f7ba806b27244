'use client';
/**
 * Every timestamp on every page: absolute in the viewer's zone with the zone shown and a relative
 * "12 s ago" that updates; hovering gives UTC. The server (which does not know the viewer's zone)
 * renders UTC; the browser swaps in its zone after hydration. One shared one-second clock drives
 * every instance, so a table of times costs one timer.
 */
import { useSyncExternalStore } from 'react';
import { epochRange, localText, relativeTime, utcText } from './format';

let now = 0;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}
const clientNow = () => now || (now = Date.now());
/** 0 while rendering on the server or hydrating: the markup is then the UTC form. */
const serverNow = () => 0;

export function useNow(): number {
  return useSyncExternalStore(subscribe, clientNow, serverNow);
}

export interface TimeProps {
  ms: number | null | undefined;
  /** Date and time (default), or the clock alone (a live feed of the last minutes). */
  date?: boolean;
  withMs?: boolean;
  /** Show "12 s ago" (default true). */
  relative?: boolean;
  testId?: string;
}

export function Time({ ms, date = true, withMs = false, relative = true, testId }: TimeProps) {
  const t = useNow();
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return <span className="muted">unknown</span>;
  const utc = utcText(ms, true);
  const abs = t === 0 ? utcText(ms, withMs) : localText(ms, { date, withMs });
  return (
    <time dateTime={new Date(ms).toISOString()} title={utc} className="time" data-testid={testId} data-ms={ms}>
      <span className="time-abs">{abs}</span>
      {relative && t !== 0 ? <span className="time-rel"> · {relativeTime(ms, t)}</span> : null}
    </time>
  );
}

/** An epoch with its wall-clock span: `epoch 89,783,886 (15:37:00–15:37:20 CET, 2 min ago)`. */
export function EpochTime({
  epoch,
  epochSeconds,
  label = true,
}: {
  epoch: string | number | bigint;
  epochSeconds: number | null | undefined;
  label?: boolean;
}) {
  const t = useNow();
  const r = epochSeconds ? epochRange(epoch, epochSeconds) : null;
  const head = label ? `epoch ${String(epoch)}` : String(epoch);
  if (!r) return <span>{head}</span>;
  const from = t === 0 ? utcText(r.startMs) : localText(r.startMs);
  const to = t === 0 ? utcText(r.endMs).slice(11) : localText(r.endMs, { date: false });
  return (
    // One string per text node: tables repeat this per row, and each split text costs the page a `<!-- -->` marker.
    <span className="epoch-time" title={`${utcText(r.startMs)} – ${utcText(r.endMs)}`} data-epoch={String(epoch)}>
      {`${head} `}
      <span className="muted small">{`(${from} – ${to}${t === 0 ? '' : `, ended ${relativeTime(r.endMs, t)}`})`}</span>
    </span>
  );
}
