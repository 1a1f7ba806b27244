/**
 * Agent names for the pages (the one resolver is lib/wire/agent-name.ts: SATI name, else the
 * label derived from the id), the short base58 form for tables and base58 prefix ranges for search.
 * Browser-safe.
 */
import { base58 } from '../format';

export { agentDisplayName, agentLabel, labelPrefix } from '../../lib/wire/agent-name';

/** `2sbxV…bRM4`: the base58 id shortened for tables. */
export function shortBase58(hex: string): string {
  const b = base58(hex);
  return b.length > 12 ? `${b.slice(0, 5)}…${b.slice(-4)}` : b;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const MAX = (1n << 256n) - 1n;
/** Below this a 32-byte id starts with a zero byte, which base58 writes as a leading "1". */
const NO_LEADING_ZERO = 1n << 248n;

/**
 * Inclusive ranges of 32-byte ids (as 64-hex bounds) whose base58 form starts with `prefix`.
 * Base58 of a number with a fixed count of digits sorts like the number, so for each possible
 * length the prefix is one interval of ids: search answers a base58 prefix with key-range walks on
 * the id index, as it does a hex prefix. A prefix starting with "1" (an id whose first byte is
 * zero, 1 in 256) or with characters outside the alphabet gives no range.
 */
export function base58PrefixRanges(prefix: string): [string, string][] {
  const k = prefix.length;
  if (k === 0 || k > 44 || prefix[0] === '1') return [];
  let p = 0n;
  for (const c of prefix) {
    const d = B58.indexOf(c);
    if (d < 0) return [];
    p = p * 58n + BigInt(d);
  }
  const out: [string, string][] = [];
  for (let len = k; len <= 44; len++) {
    const scale = 58n ** BigInt(len - k);
    let lo = p * scale;
    let hi = (p + 1n) * scale - 1n;
    const minLen = 58n ** BigInt(len - 1);
    const maxLen = 58n ** BigInt(len) - 1n;
    if (lo < minLen) lo = minLen;
    if (lo < NO_LEADING_ZERO) lo = NO_LEADING_ZERO;
    if (hi > maxLen) hi = maxLen;
    if (hi > MAX) hi = MAX;
    if (lo > hi) continue;
    out.push([lo.toString(16).padStart(64, '0'), hi.toString(16).padStart(64, '0')]);
  }
  return out;
}
