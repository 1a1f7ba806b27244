'use client';
/**
 * Every timestamp on every page: absolute in the viewer's zone with the zone shown and a relative
 * "12 s ago" that updates; hovering gives UTC. The server (which does not know the viewer's zone)
 * renders UTC; the browser swaps in its zone after hydration. One shared one-second clock drives
 * every instance, so a table of times costs one timer.
 */
import { useSyncExternalStore } from 'react';
import { useSite } from '../site';
import { epochRange, localText, relativeTime, utcText } from './format';
import { useZoneChoice, zoneOption } from './zone';

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
  const timeZone = zoneOption(useZoneChoice());
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return <span className="muted">unknown</span>;
  const utc = utcText(ms, true);
  const abs = t === 0 ? utcText(ms, withMs) : localText(ms, { date, withMs, timeZone });
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
  /** The protocol epoch's length; the site's (from the root layout) when not given. */
  epochSeconds?: number | null;
  label?: boolean;
}) {
  const site = useSite();
  epochSeconds = epochSeconds === undefined ? site.epochSeconds : epochSeconds;
  const t = useNow();
  const timeZone = zoneOption(useZoneChoice());
  const r = epochSeconds ? epochRange(epoch, epochSeconds) : null;
  const head = label ? `epoch ${String(epoch)}` : String(epoch);
  if (!r)
    return (
      <span className="epoch-time" data-epoch={String(epoch)}>
        {`${head} `}
        <span className="muted small" title="this server does not know its epoch length">
          (clock time unknown)
        </span>
      </span>
    );
  const from = t === 0 ? utcText(r.startMs) : localText(r.startMs, { timeZone });
  const to = t === 0 ? utcText(r.endMs).slice(11) : localText(r.endMs, { date: false, timeZone });
  return (
    // One string per text node: tables repeat this per row, and each split text costs the page a `<!-- -->` marker.
    <span className="epoch-time" title={`${utcText(r.startMs)} – ${utcText(r.endMs)}`} data-epoch={String(epoch)}>
      {`${head} `}
      <span className="muted small">
        {`(${from} – ${to}` + `${t === 0 ? '' : `, ${r.endMs > t ? 'ends' : 'ended'} ${relativeTime(r.endMs, t)}`})`}
      </span>
    </span>
  );
}

/**
 * A slot with the clock time of its block as the indexer stored it (`blockMs`, from the chain's own
 * block time), or "clock time unknown" where no event of that block is indexed: a slot number alone
 * says nothing to a person, and a time guessed from slot length would drift.
 */
export function SlotTime({ blockMs, children }: { blockMs: number | null | undefined; children: React.ReactNode }) {
  return (
    <span className="slot-time">
      {children}{' '}
      {blockMs === null || blockMs === undefined ? (
        <span className="muted small" title="no indexed event of this block carries its block time">
          (clock time unknown)
        </span>
      ) : (
        <span className="muted small">
          (<Time ms={blockMs} />)
        </span>
      )}
    </span>
  );
}
