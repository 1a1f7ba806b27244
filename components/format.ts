/**
 * Display helpers shared by pages and client components (browser-safe: no Node APIs).
 */
import { formatTokenAmount, MAX_DECIMALS, type TokenAmountOptions } from '../lib/wire/format';

// Shared with the server's view models (lib/wire/format.ts); re-exported so components keep one import.
export { base58, formatTokenAmount, shortHex, type TokenAmountOptions } from '../lib/wire/format';

const ZERO32 = '0'.repeat(64);

/** True for the 32-zero-byte broadcast recipient. */
export function isBroadcast(hex: string | null | undefined): boolean {
  return !hex || hex === ZERO32;
}

/** True for an absent or all-zero id (broadcasts carry a zero conversation id). */
export function isZeroId(hex: string | null | undefined): boolean {
  return !hex || /^0+$/.test(hex);
}

/** 12,345 */
export function count(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US') : '—';
}

/** The chain's USDC (Haggle escrows and settles in it; stake and lease are paid in it). */
export const USDC_TOKEN = Object.freeze({ decimals: 6, symbol: 'USDC' });
/** A token nobody named (NEG1's zero token_mint): amounts stay in raw units. */
export const UNKNOWN_TOKEN = Object.freeze({ decimals: null, symbol: null });

/** `d` places of a decimals value, or null when unknown (absent, not an integer in range). */
const knownDecimals = (d: number | null | undefined): number | null =>
  d === null || d === undefined || !Number.isInteger(d) || d < 0 || d > MAX_DECIMALS ? null : d;

/**
 * An amount figure in token units that may not be whole (a Nash point halfway between two
 * prices, an average) or may still come as a JavaScript number: a bigint or decimal string is
 * shown exactly (1500000.5 units at 6 decimals is 1.5000005); a number is exact while it is a safe
 * integer or short decimal, and otherwise shown as an approximation marked "≈" rather than with
 * digits it does not have. "—" when absent or not a number.
 */
export function formatAmount(raw: string | number | bigint | null | undefined, opts: TokenAmountOptions = {}): string {
  if (typeof raw === 'bigint') return formatTokenAmount(raw, opts);
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return '—';
    if (Number.isSafeInteger(raw)) return formatTokenAmount(BigInt(raw), opts);
    const text = String(raw);
    if (Math.abs(raw) < 2 ** 53 && /^-?\d+\.\d+$/.test(text)) return formatAmount(text, opts);
    const d = knownDecimals(opts.decimals);
    const v = d === null ? raw : raw / 10 ** d;
    return `≈${v
      .toExponential(3)
      .replace(/\.?0+e/, 'e')
      .replace(
        'e+',
        'e',
      )}${d === null ? ' units' : ''}${opts.symbol ? `${d === null ? ' of' : ''} ${opts.symbol}` : ''}`;
  }
  if (typeof raw !== 'string') return '—';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw);
  if (!m) return '—';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const whole = BigInt(`${m[1]}${m[2]}${frac}`);
  const d = knownDecimals(opts.decimals);
  if (d !== null) return formatTokenAmount(whole, { ...opts, decimals: d + frac.length });
  if (!frac) return formatTokenAmount(whole, opts);
  return `${formatTokenAmount(whole, { decimals: frac.length })} units${opts.symbol ? ` of ${opts.symbol}` : ''}`;
}

/**
 * Where an amount sits on a price axis, as whole units: exact for a bigint or an integer string, a
 * decimal string cut to its whole units (a fraction of a unit is no visible distance), a number
 * rounded (a float is already approximate); null when it is none of these.
 */
export function amountUnits(raw: string | number | bigint | null | undefined): bigint | null {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? BigInt(Math.round(raw)) : null;
  if (typeof raw !== 'string') return null;
  const m = /^(-?\d+)(?:\.\d+)?$/.exec(raw);
  return m ? BigInt(m[1]) : null;
}

/** 10^k as a bigint. */
const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** Number of decimal digits of a positive bigint. */
const digitCount = (v: bigint): number => v.toString().length;

/**
 * Round tick values for a price axis, all exact bigints: a step of 1, 2 or 5 × 10^k chosen so
 * about `count` ticks cover [lo, hi], and the domain widened to whole steps (so the axis starts
 * and ends on a labelled tick). Works for any size (int128 prices around 10^38) because nothing
 * passes through a float; an empty range gets a step of one unit-ish around the value.
 */
export function bigintTicks(
  lo: bigint,
  hi: bigint,
  count = 5,
): { lo: bigint; hi: bigint; step: bigint; ticks: bigint[] } {
  if (hi < lo) [lo, hi] = [hi, lo];
  const n = BigInt(Math.max(1, Math.floor(count)));
  let span = hi - lo;
  if (span === 0n) {
    // One value: open a window of about a tenth of its size (at least one unit) around it.
    const a = lo < 0n ? -lo : lo;
    span = a >= 10n ? pow10(digitCount(a) - 1) : 1n;
    lo -= span;
    hi += span;
    span = hi - lo;
  }
  const raw = (span + n - 1n) / n; // ceiling: the smallest step giving at most `count` intervals
  let step = 1n;
  if (raw > 1n) {
    const mag = pow10(digitCount(raw) - 1);
    step = [1n, 2n, 5n, 10n].map((m) => m * mag).find((s) => s >= raw) ?? 10n * mag;
  }
  const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));
  const start = floorDiv(lo, step) * step;
  const end = -floorDiv(-hi, step) * step;
  const ticks: bigint[] = [];
  for (let t = start; t <= end; t += step) ticks.push(t);
  return { lo: start, hi: end, step, ticks };
}

/**
 * A linear scale from an exact bigint domain to screen coordinates. The value's position within
 * the domain is taken as an exact fraction (to a billionth) before it becomes a float, so a domain
 * around 1.4e38 places points as precisely as one around 1.
 */
export function bigintScale(
  domain: readonly [bigint, bigint],
  range: readonly [number, number],
): (v: bigint) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  const PREC = 1_000_000_000n;
  return (v: bigint) =>
    span === 0n ? (r0 + r1) / 2 : r0 + (r1 - r0) * (Number(((v - d0) * PREC) / span) / Number(PREC));
}

/**
 * The shortest exact scientific form of a display value's digits (1.45e38), or null past `maxDigits` significant
 * digits.
 */
function exactSci(units: bigint, decimals: number, maxDigits: number): string | null {
  if (units === 0n) return '0';
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString();
  const sig = digits.replace(/0+$/, '');
  if (sig.length > maxDigits) return null;
  const exp = digits.length - 1 - decimals;
  return `${neg ? '-' : ''}${sig[0]}${sig.length > 1 ? `.${sig.slice(1)}` : ''}e${exp}`;
}

/**
 * Labels for exact bigint axis ticks (bigintTicks) that fit beside a chart, each still exact:
 * the amount itself while it is short; else the exact scientific form (1.4e38: the ticks are round
 * numbers); else, for ticks close together on a large value, the first tick in full as `base` and
 * each label the exact offset from it ("+500"). Amounts are in the token's display unit when
 * `decimals` is known, else in raw units; neither label carries the unit (the axis names it).
 */
export function axisLabels(
  ticks: readonly bigint[],
  opts: { decimals?: number | null; maxChars?: number } = {},
): { labels: string[]; base: bigint | null } {
  const d = knownDecimals(opts.decimals) ?? 0;
  const max = opts.maxChars ?? 14;
  const plain = (t: bigint) => formatTokenAmount(t, { decimals: d });
  const fit = (t: bigint) => {
    const p = plain(t);
    return p.length <= max ? p : exactSci(t, d, 4);
  };
  const direct = ticks.map(fit);
  if (direct.every((l) => l !== null)) return { labels: direct as string[], base: null };
  const base = ticks[0];
  const offsets = ticks.map((t) => {
    const o = fit(t - base);
    return o === null ? plain(t - base) : t === base ? '+0' : `${t > base ? '+' : ''}${o}`;
  });
  return { labels: offsets, base };
}

/**
 * An amount short enough to label a chart: the exact amount while it has at most `maxChars`
 * characters, else its exact scientific form when that is short (1.4e38), else the first four
 * significant digits marked as an approximation (≈1.401e38); the unit is the caller's to name.
 */
export function compactAmount(units: bigint, opts: { decimals?: number | null; maxChars?: number } = {}): string {
  const d = knownDecimals(opts.decimals) ?? 0;
  const plain = formatTokenAmount(units, { decimals: d });
  if (plain.length <= (opts.maxChars ?? 14)) return plain;
  const sci = exactSci(units, d, 4);
  if (sci !== null) return sci;
  const neg = units < 0n;
  const digits = (neg ? -units : units).toString();
  return `≈${neg ? '-' : ''}${digits[0]}.${digits.slice(1, 4)}e${digits.length - 1 - d}`;
}
