/**
 * Reputation scores in one unit everywhere people read or type them: score points, the scale of a
 * FEEDBACK score (-100..100, docs/protocol.md §7). The protocol keeps a score as int64 fixed point
 * (points × ONE, ONE = 1,000,000); the API's score fields carry that exact integer, and every
 * page, filter and alert threshold shows or takes points (62.333333 points = 62333333).
 */
import { z } from 'zod';

export const SCORE_ONE = 1_000_000n;
const PLACES = 6;

/** A fixed-point score as points, exact (trailing zeros dropped), or cut to `places` decimals toward zero. */
export function scorePoints(fixed: bigint | string, places = PLACES): string {
  const v = typeof fixed === 'bigint' ? fixed : BigInt(fixed);
  const neg = v < 0n;
  const a = neg ? -v : v;
  const int = a / SCORE_ONE;
  const frac = (a % SCORE_ONE)
    .toString()
    .padStart(PLACES, '0')
    .slice(0, Math.max(0, Math.min(PLACES, places)));
  const shown = places === PLACES ? frac.replace(/0+$/, '') : frac;
  const body = `${int}${shown ? `.${shown}` : ''}`;
  return neg && /[1-9]/.test(body) ? `-${body}` : body;
}

/** Points typed as a decimal ("62.5", "-3", at most 6 decimals) to fixed point; null when not such a number. */
export function pointsToFixed(text: string): bigint | null {
  const m = /^(-?)(\d{1,19})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const v = BigInt(m[2]) * SCORE_ONE + BigInt((m[3] ?? '').padEnd(PLACES, '0') || '0');
  return m[1] ? -v : v;
}

/** A query parameter in points (-100..100, up to 6 decimals), as fixed point. */
export const scorePointsParam = z
  .string()
  .trim()
  .regex(
    /^-?\d{1,3}(\.\d{1,6})?$/,
    'must be score points from -100 to 100 with at most 6 decimals (the FEEDBACK score scale, e.g. 62.5)',
  )
  .transform((s) => pointsToFixed(s)!)
  .refine((v) => v >= -100n * SCORE_ONE && v <= 100n * SCORE_ONE, 'must be score points from -100 to 100');
