/**
 * Time as every page shows it: absolute in the viewer's zone with the zone named, relative to now
 * ("12 s ago"), and UTC for the tooltip. Pure functions (the zone is a parameter), so they are
 * tested without a browser; components/time/Time.tsx renders them.
 */

/** `12 s ago`, `3 min ago`, `in 5 s`; `now` within a second. */
export function relativeTime(ms: number, now: number): string {
  const d = Math.round((now - ms) / 1000);
  const a = Math.abs(d);
  if (a < 1) return 'now';
  const [n, unit] =
    a < 60
      ? [a, 's']
      : a < 3600
        ? [Math.floor(a / 60), 'min']
        : a < 86_400
          ? [Math.floor(a / 3600), 'h']
          : [Math.floor(a / 86_400), 'd'];
  return d >= 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** `2026-11-26 15:37:04 UTC`: the tooltip form, and what the server renders before the browser knows its zone. */
export function utcText(ms: number, withMs = false): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, withMs ? 23 : 19)} UTC`;
}

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(timeZone: string | undefined, date: boolean): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${date}`;
  let f = fmtCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      ...(date ? { year: 'numeric', month: '2-digit', day: '2-digit' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    fmtCache.set(key, f);
  }
  return f;
}

/**
 * `2026-11-26 16:37:04 CET` (or `16:37:04 CET` with `date: false`) in `timeZone` (the viewer's
 * when undefined), with milliseconds when asked. The zone is the short name Intl gives
 * (`GMT+1` where the locale has no abbreviation).
 */
export function localText(ms: number, opts: { timeZone?: string; date?: boolean; withMs?: boolean } = {}): string {
  const parts = fmt(opts.timeZone, opts.date ?? true).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  const clock = `${get('hour')}:${get('minute')}:${get('second')}${
    opts.withMs ? `.${String(new Date(ms).getUTCMilliseconds()).padStart(3, '0')}` : ''
  }`;
  const zone = get('timeZoneName');
  return `${(opts.date ?? true) ? `${get('year')}-${get('month')}-${get('day')} ` : ''}${clock} ${zone}`;
}

/** The wall-clock span of a protocol epoch (epoch e covers [e·len, (e+1)·len) seconds of unix time). */
export function epochRange(
  epoch: bigint | number | string,
  epochSeconds: number,
): { startMs: number; endMs: number } | null {
  let e: bigint;
  try {
    e = BigInt(epoch);
  } catch {
    return null;
  }
  if (!(epochSeconds > 0) || e < 0n) return null;
  const start = e * BigInt(Math.round(epochSeconds * 1000));
  const end = start + BigInt(Math.round(epochSeconds * 1000));
  if (end > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { startMs: Number(start), endMs: Number(end) };
}

/** The forms an axis tick takes: clock with seconds, clock, day with clock, day, month-day. */
export type TickForm = 'clock-s' | 'clock' | 'day-clock' | 'day' | 'md';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An axis tick's text for `ms` in `timeZone` (the viewer's when undefined): `15:37`, `Nov 26 15:37`, `11-26`. */
export function tickText(ms: number, form: TickForm, timeZone?: string): string {
  const parts = fmt(timeZone, true).formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  const hm = `${get('hour')}:${get('minute')}`;
  const day = `${MONTHS[Number(get('month')) - 1]} ${Number(get('day'))}`;
  if (form === 'clock-s') return `${hm}:${get('second')}`;
  if (form === 'clock') return hm;
  if (form === 'day-clock') return `${day} ${hm}`;
  if (form === 'day') return day;
  return `${get('month')}-${get('day')}`;
}

/** The short name of `timeZone` (the viewer's when undefined) at `ms`: `CET`, `UTC`, `GMT+1`. */
export function zoneText(ms: number, timeZone?: string): string {
  return (
    fmt(timeZone, false)
      .formatToParts(new Date(ms))
      .find((p) => p.type === 'timeZoneName')?.value ?? ''
  );
}
