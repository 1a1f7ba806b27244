/**
 * What an agent is called on every page: its SATI name when its registration has one, otherwise a
 * short label derived from its id, so the same agent reads the same everywhere and two agents
 * rarely look alike at a glance. The label is two words picked by the id's first 12 bits; it is a
 * reading aid, never an identifier (the base58 id stands beside it). Browser-safe.
 */
import { base58 } from '../format';

const ADJECTIVES = [
  'amber', 'azure', 'bold', 'brisk', 'calm', 'clever', 'coral', 'crisp', 'dapper', 'deft', 'eager', 'early', 'fabled', 'fair', 'fleet', 'fond',
  'gentle', 'glad', 'golden', 'grand', 'hardy', 'hazel', 'honest', 'humble', 'ivory', 'jade', 'jolly', 'keen', 'kind', 'lively', 'lucid', 'lunar',
  'mellow', 'merry', 'mighty', 'misty', 'noble', 'nimble', 'olive', 'opal', 'patient', 'plucky', 'proud', 'quick', 'quiet', 'rapid', 'regal', 'rosy',
  'rustic', 'sage', 'sharp', 'silver', 'solar', 'steady', 'sunny', 'swift', 'tidy', 'true', 'vivid', 'warm', 'wise', 'witty', 'young', 'zesty',
] as const;
const NOUNS = [
  'badger', 'beacon', 'bison', 'brook', 'canyon', 'cedar', 'comet', 'condor', 'coyote', 'crane', 'delta', 'dune', 'eagle', 'ember', 'falcon', 'fern',
  'finch', 'fjord', 'fox', 'gecko', 'glacier', 'harbor', 'hawk', 'heron', 'ibis', 'island', 'jaguar', 'kestrel', 'koala', 'lagoon', 'lark', 'lynx',
  'maple', 'marten', 'meadow', 'mesa', 'newt', 'oak', 'orca', 'osprey', 'otter', 'owl', 'panda', 'pine', 'puffin', 'quail', 'raven', 'reef',
  'ridge', 'robin', 'salmon', 'sparrow', 'spruce', 'stork', 'summit', 'tern', 'tiger', 'tundra', 'valley', 'walrus', 'willow', 'wren', 'yak', 'zebra',
] as const;

/** The two-word label of a 64-hex agent id (`swift-otter`); ids that are not hex get their first characters. */
export function agentLabel(hex: string): string {
  if (!/^[0-9a-f]{3}/i.test(hex)) return hex.slice(0, 8);
  const bits = parseInt(hex.slice(0, 3), 16); // 12 bits: 6 for the adjective, 6 for the noun
  return `${ADJECTIVES[bits >> 6]}-${NOUNS[bits & 63]}`;
}

/**
 * The hex prefix every id with this label starts with (3 hex digits), or null when `text` is not a
 * label: search turns a label into a key range this way, as it does a hex prefix.
 */
export function labelPrefix(text: string): string | null {
  const m = /^([a-z]+)-([a-z]+)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const a = (ADJECTIVES as readonly string[]).indexOf(m[1]);
  const n = (NOUNS as readonly string[]).indexOf(m[2]);
  if (a < 0 || n < 0) return null;
  return ((a << 6) | n).toString(16).padStart(3, '0');
}

/** The name to show: the stored (SATI) name when there is one, else the derived label. */
export function agentDisplayName(hex: string, name?: string | null): string {
  const n = name?.trim();
  return n ? n : agentLabel(hex);
}

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
