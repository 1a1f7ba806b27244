'use client';
/**
 * A filter's date-time field in the same zone as the rows it filters: the viewer types a time in
 * the zone the page shows (their own, or UTC when chosen in the header), and the form sends the
 * instant as unix ms. Before hydration (or without scripts) the field itself is sent, read by the
 * server as UTC, and its label says so.
 */
import { useEffect, useState } from 'react';
import { zoneText } from './format';
import { useZoneChoice } from './zone';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `YYYY-MM-DDTHH:MM` (`:SS` with `seconds`) of `ms` in the viewer's zone, or in UTC: what a
 * datetime-local field holds.
 */
export function fieldText(ms: number, utc: boolean, seconds = false): string {
  if (utc) return new Date(ms).toISOString().slice(0, seconds ? 19 : 16);
  const d = new Date(ms);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const hm = `${day}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return seconds ? `${hm}:${pad(d.getSeconds())}` : hm;
}

/** The instant a field's text names in the viewer's zone or in UTC; null when empty or not a time. */
export function fieldInstant(text: string, utc: boolean): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return null;
  // Without a zone suffix the platform reads a date-time in the viewer's zone.
  const ms = utc ? Date.parse(`${text}Z`) : new Date(text).getTime();
  return Number.isFinite(ms) ? ms : null;
}

export function ZonedDateInput({ label, name, ms }: { label: string; name: string; ms: number | undefined }) {
  const choice = useZoneChoice();
  const utc = choice !== 'local';
  const [text, setText] = useState(ms === undefined ? '' : fieldText(ms, true));
  // Once the zone is known, show the same instant in it.
  useEffect(() => {
    if (choice !== null && ms !== undefined) setText(fieldText(ms, choice === 'utc'));
  }, [choice, ms]);
  const zone = choice === null || utc ? 'UTC' : zoneText(Date.now());
  const instant = fieldInstant(text, utc);
  return (
    <label>
      {label} ({zone}){' '}
      <input
        type="datetime-local"
        name={choice === null ? name : undefined}
        value={text}
        onChange={(e) => setText(e.target.value)}
        data-testid={`${name}-time`}
      />
      {choice === null ? null : <input type="hidden" name={name} value={instant === null ? '' : String(instant)} />}
    </label>
  );
}
