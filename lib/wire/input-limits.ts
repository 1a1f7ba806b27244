/**
 * What every parameter of the API and of the MCP tools must be before it reaches a read
 * (docs/app.md "HTTP API", "Valid parameters"): times within {@link MIN_TIME_MS}..{@link MAX_TIME_MS}
 * and text without NUL or lone surrogates. Both are checked once here, where the shared query
 * parsing and the tools' argument schemas look, so a route added later is covered by using them.
 *
 * - **Times.** JavaScript dates go up to year 275760 and Postgres `timestamptz` to 294276, but
 *   the way between them does not: a Date past year 9999 is written `+010000-01-01T…` by
 *   toISOString, which Postgres reads as a time zone displacement and refuses. So a time
 *   parameter is a unix millisecond from 1970 to the last millisecond of 9999.
 * - **Text.** Postgres `text` cannot hold U+0000, and a lone UTF-16 surrogate has no UTF-8 form;
 *   either reaching a query is a database error. Invalid UTF-8 in a percent-encoding
 *   (`%ff`, `%ed%a0%80`) is refused where the encoding is decoded (app/_lib/http.ts
 *   parseQuery, server/request-target.ts).
 */
import { z } from 'zod';

/** The first valid time: the unix epoch. */
export const MIN_TIME_MS = 0;
/** The last valid time: 9999-12-31T23:59:59.999Z. */
export const MAX_TIME_MS = 253_402_300_799_999;

/** A time parameter's rule, as its 400 says it. */
export const TIME_RANGE_TEXT = `unix milliseconds from ${MIN_TIME_MS} to ${MAX_TIME_MS} (9999-12-31T23:59:59.999Z)`;

/** A unix-ms query parameter (decimal digits, at most {@link MAX_TIME_MS}) as a number. */
export const timeMsParam = (what = 'unix milliseconds') =>
  z
    .string()
    .trim()
    .regex(/^\d{1,20}$/, `must be ${what}`)
    .refine((s) => Number(s) <= MAX_TIME_MS, `out of range: must be ${TIME_RANGE_TEXT}`)
    .transform(Number);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with the characters of `s` (a NUL, a lone surrogate), or null when nothing is. */
export function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return 'holds a NUL character (U+0000, %00), which no text can carry';
  if (LONE_SURROGATE.test(s)) return 'holds a lone UTF-16 surrogate, which has no UTF-8 form';
  return null;
}

/**
 * The first string in a parsed JSON value (a body, a tool's arguments) whose characters are
 * refused by {@link textProblem}, as `{ path, problem }` (`path` like `rules.0.name`; a key
 * itself is reported by its parent's path), or null.
 */
export function jsonTextProblem(v: unknown, path = ''): { path: string; problem: string } | null {
  if (typeof v === 'string') {
    const p = textProblem(v);
    return p ? { path: path || '(body)', problem: p } : null;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = jsonTextProblem(v[i], path ? `${path}.${i}` : String(i));
      if (r) return r;
    }
    return null;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const kp = textProblem(k);
      if (kp) return { path: `${path ? `${path}.` : ''}(a key)`, problem: kp };
      const r = jsonTextProblem(x, path ? `${path}.${k}` : k);
      if (r) return r;
    }
  }
  return null;
}
