import { formatTokenAmount } from '../format';
import { localText } from '../time/format';
import { shownZone } from '../time/zone';

/**
 * Amounts as people read them: SOL from lamports, USDC from 6-decimal base units, exact (a
 * balance of 0.001 USDC is not shown as 0.00), with the places a balance is usually read with.
 */
export function sol(lamports: bigint | null): string {
  if (lamports === null) return '…';
  return formatTokenAmount(lamports, { decimals: 9, minFractionDigits: 3 });
}

export function usdc(base: bigint | string | null): string {
  if (base === null) return '…';
  return formatTokenAmount(typeof base === 'string' ? BigInt(base) : base, { decimals: 6, minFractionDigits: 2 });
}

/** A base58 address shortened for tight spaces (the full one goes in `title`). */
export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 4)}…${a.slice(-4)}` : a;
}

/** USDC typed by a person ("12.5") in base units; null when not a positive amount with ≤ 6 decimals. */
export function parseUsdc(text: string): bigint | null {
  const m = /^\s*(\d{1,12})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!m) return null;
  const v = BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
  return v > 0n ? v : null;
}

/** "3 min", "2 h 5 min", "4 d 1 h": a duration in seconds as read at a glance. */
function span(sec: number): string {
  const s = Math.abs(Math.round(sec));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) {
    const m = Math.floor((s % 3600) / 60);
    return `${Math.floor(s / 3600)} h${m ? ` ${m} min` : ''}`;
  }
  const h = Math.floor((s % 86_400) / 3600);
  return `${Math.floor(s / 86_400)} d${h ? ` ${h} h` : ''}`;
}

/**
 * An expiry or deadline (unix seconds, 0 = never) as clock time in `timeZone` (the zone every page
 * shows: the viewer's, or UTC when chosen in the header) with the zone named, and relative to
 * `nowSec`: "2026-11-26 14:05:00 UTC (in 3 min)", "… (2 h ago)".
 */
export function expiryText(expiry: bigint, nowSec: number, timeZone: string | undefined = shownZone()): string {
  if (expiry === 0n) return 'never';
  const sec = Number(expiry);
  const d = sec - nowSec;
  return `${localText(sec * 1000, { timeZone })} (${d === 0 ? 'now' : d > 0 ? `in ${span(d)}` : `${span(d)} ago`})`;
}
