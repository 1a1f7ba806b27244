/**
 * Envelopes for `npm run bench:query` at millions of rows. Deals are played once by the export
 * bench's generator (lib/export/deals-testing `makeDeals`: the demo agents' state machine, signed,
 * the real msg_type mix), then copied: each copy moves the deals to other agents (a rotation of
 * the 2,000), other conversations and another time, with a fresh id. Signing and playing 10M
 * envelopes would take about 25 minutes of a core; a copy costs a hash. A copy's `raw` is its
 * template's bytes (the reads under test never re-verify them), everything the pages filter,
 * join and sort on is the copy's own.
 */
import { createHash } from 'node:crypto';
import { makeDeals } from '../lib/export/deals-testing';
import type { IngestItem } from '../lib/store';

export const AGENTS = 2_000;
const DAY_US = 86_400_000_000n;

export interface Templates {
  items: IngestItem[];
  spanUs: bigint;
}

/** One played set of deals between AGENTS agents, starting at time 0. */
export function templates(deals: number, seed = 11): Templates {
  const fx = makeDeals({ deals, agents: AGENTS, seed, startUs: 0n });
  const items = fx.items.slice(0, -2); // the one 2^70-priced deal would repeat in every copy
  return { items, spanUs: items[items.length - 1].envelope.timestamp + 1n };
}

const isAgent = (b: Uint8Array) => b.length === 32 && b[0] === 0xa5;

/** Copy `c` of the templates, shifted to start at `startUs`, in timestamp order. */
export function copyOf(t: Templates, c: number, startUs: bigint): IngestItem[] {
  const rot = (c * 613) % AGENTS;
  const move = (b: Uint8Array) => {
    if (!isAgent(b)) return b;
    const out = new Uint8Array(b);
    const dv = new DataView(out.buffer);
    dv.setUint32(28, ((dv.getUint32(28) - 1 + rot) % AGENTS) + 1);
    return out;
  };
  const agentCache = new Map<string, Uint8Array>();
  const agent = (b: Uint8Array) => {
    const k = Buffer.from(b).toString('hex');
    let v = agentCache.get(k);
    if (!v) {
      v = move(b);
      agentCache.set(k, v);
    }
    return v;
  };
  return t.items.map((it) => {
    const e = it.envelope;
    const conv = new Uint8Array(e.conversationId);
    new DataView(conv.buffer).setUint32(4, c + 1);
    const timestamp = startUs + e.timestamp;
    const id = new Uint8Array(createHash('sha256').update(it.id).update(String(c)).digest());
    return {
      ...it,
      id,
      envelope: { ...e, sender: agent(e.sender), recipient: agent(e.recipient), conversationId: conv, timestamp },
      receivedAt: new Date(Number(timestamp / 1000n) + 5),
    };
  });
}

/** The copies of the templates (`c`, start µs) that make `rows` envelopes, grouped by time slice. */
export interface Slice {
  copies: Array<{ c: number; startUs: bigint }>;
  rows: number;
}

/**
 * `rows` envelopes (rounded up to whole copies, so the derived rows of a copy are all of it)
 * ending at `endUs` over `days` days, as slices in time order: each slice is `perSlice`
 * overlapping copies that the loader merges by timestamp, so insertion order (seq) follows time
 * as it does on a live observer.
 */
export function plan(t: Templates, rows: number, days: number, endUs: bigint): Slice[] {
  const copies = Math.ceil(rows / t.items.length);
  const startUs = endUs - BigInt(days) * DAY_US;
  const sliceCount = Math.max(1, Math.floor(Number((BigInt(days) * DAY_US) / t.spanUs)));
  const perSlice = Math.ceil(copies / sliceCount);
  const out: Slice[] = [];
  for (let s = 0, c = 0; c < copies; s++) {
    const slice: Slice = { copies: [], rows: 0 };
    for (let k = 0; k < perSlice && c < copies; k++, c++)
      slice.copies.push({ c, startUs: startUs + BigInt(s) * t.spanUs });
    slice.rows = slice.copies.length * t.items.length;
    out.push(slice);
  }
  return out;
}

/** The envelopes of a slice, merged by timestamp. */
export function sliceItems(t: Templates, slice: Slice): IngestItem[] {
  const batch: IngestItem[] = [];
  for (const { c, startUs } of slice.copies) batch.push(...copyOf(t, c, startUs));
  return batch.sort((a, b) =>
    a.envelope.timestamp < b.envelope.timestamp ? -1 : a.envelope.timestamp > b.envelope.timestamp ? 1 : 0,
  );
}

/**
 * SQL expressions of copyOf for the loader's set-based derived rows: `c` is the copy number
 * column, `b` a bytea expression. They must stay equal to copyOf (the loader checks a sample).
 */
export const sqlCopy = {
  agent: (b: string, c: string) =>
    `(CASE WHEN length(${b}) = 32 AND get_byte(${b}, 0) = 165 THEN overlay(${b} PLACING ` +
    `int4send(((((('x' || encode(substring(${b} FROM 29 FOR 4), 'hex'))::bit(32)::int4) - ` +
    `1 + (${c} * 613) % ${AGENTS}) % ${AGENTS}) + 1)::int4) FROM 29 FOR 4) ELSE ${b} END)`,
  conversation: (b: string, c: string) => `overlay(${b} PLACING int4send((${c} + 1)::int4) FROM 5 FOR 4)`,
  id: (b: string, c: string) => `sha256(${b} || convert_to(${c}::text, 'UTF8'))`,
};
