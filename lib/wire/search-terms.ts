/**
 * A search query read the way a person types it: an id in hex or base58, a prefix of one,
 * `agent epoch` for a batch, a signature, a label. The terms are what the store's search walks
 * (lib/store/envelopes/search.ts); GET /api/search, the /search page and the MCP `search` tool all read
 * queries through here, so all three answer alike.
 */
import { agentBytes } from './agent-id';
import { labelPrefix } from './agent-name';
import { INT8_MAX } from './params';

/** What one query asks the store for. */
export interface SearchTerms {
  /** Lowercase hex prefix (1..64 characters) of an agent, conversation or envelope id. */
  hexPrefix?: string;
  /** A full 32-byte agent id (from hex or base58). */
  agent?: Uint8Array;
  /** An epoch: batches of `agent` (or of every agent) in that epoch. */
  epoch?: bigint;
  /** A base58 prefix (challenge addresses, transaction signatures). */
  base58Prefix?: string;
  /** Free text matched against agent labels (case-insensitive substring). */
  text?: string;
  /** Inclusive 32-byte id ranges (64-hex bounds) of agents: a base58 prefix or a derived label, as key-range walks. */
  agentRanges?: [string, string][];
  /** Rows per kind. */
  limit: number;
}

const HEX = /^(?:0x)?([0-9a-fA-F]{1,64})$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** An epoch from digits, or none past the store's int8 epoch columns (a larger number names none). */
const epochOf = (digits: string): bigint | undefined => {
  const e = BigInt(digits);
  return e <= BigInt(INT8_MAX) ? e : undefined;
};

/** The store's search terms for a query string; `agent` is set when the query names one agent in full. */
export function searchTerms(query: string, limit: number): SearchTerms {
  const q = query.trim();
  const t: SearchTerms = { limit, text: q };
  // `agent epoch`, `agent/epoch`, `agent:epoch` or `agent@epoch`: one batch (and its challenges).
  const pair = /^(\S+?)\s*[\s/:@#]\s*(\d{1,19})$/.exec(q);
  if (pair) {
    const agent = agentBytes(pair[1]);
    const epoch = epochOf(pair[2]);
    if (agent && epoch !== undefined) return { limit, agent, epoch };
  }
  const m = HEX.exec(q);
  if (m) t.hexPrefix = m[1].toLowerCase();
  if (BASE58.test(q)) {
    t.base58Prefix = q;
    // An agent's base58 address prefix: the ids it can start are a few key ranges.
    if (q.length >= 3) t.agentRanges = base58PrefixRanges(q);
  }
  // A derived label (`swift-otter`) names the ids starting with its 3 hex digits.
  const lp = labelPrefix(q);
  if (lp) t.agentRanges = [...(t.agentRanges ?? []), [lp.padEnd(64, '0'), lp.padEnd(64, 'f')]];
  const agent = agentBytes(q);
  if (agent) t.agent = agent;
  if (/^\d{1,19}$/.test(q)) t.epoch = epochOf(q);
  return t;
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
