/**
 * A release's tables re-derived from its own raw envelopes with the exporter's own row code
 * (rows.ts, negotiation.ts), so verify-dataset compares what a release states with what its
 * signed bytes say, cell by cell (docs/datasets.md "Verifying a release").
 *
 * What cannot come from envelopes is taken from the row it is compared with and named as such:
 * an envelope's receipt columns (seq, seen_via, gossip_topic, first_seen: how the observer got it)
 * and a negotiation's on-chain columns (the chain indexer's view of its Haggle account).
 */

import { toHex } from '../protocol/hex';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import type { HaggleNegotiationRow } from '../store';
// The store's epoch column: floor(timestamp / epoch length), clamped to int4 (a sender may date anything).
import { epochOfFn } from '../store/envelopes';
import { negotiationRecord, offerRows } from './negotiation';
import { ONCHAIN_COLUMNS, onChainColumns } from './negotiation-onchain';
import { type EnvelopeRecord, envelopeRecord, envelopeRow, feedbackRow } from './rows';
import type { Column, ColumnType, Row, TableSchema } from './schema';
import { parquetMisfit, parquetValue } from './writers';

type FileRow = Record<string, unknown>;

const bytesOf = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? v : typeof v === 'string' ? Uint8Array.from(Buffer.from(v, 'hex')) : new Uint8Array(0);
const usOf = (v: unknown): bigint => (v instanceof Date ? BigInt(v.getTime()) * 1000n : BigInt(String(v)));

/** The store row an envelopes-table row stands for: its raw bytes plus the observer's receipt columns. */
export function storeRowOf(r: FileRow, epochSeconds: number): Record<string, unknown> {
  const raw = bytesOf(r.raw);
  const rec = envelopeRecord({ id: r.id, seq: '0', raw, epoch: 0, source: '', topic: null, received_us: '0' });
  return {
    id: bytesOf(r.id),
    seq: String(r.seq),
    raw,
    epoch: String(epochOfFn(epochSeconds)(rec.timestamp)),
    source: String(r.seen_via),
    topic: r.gossip_topic ?? null,
    received_us: usOf(r.first_seen).toString(),
  };
}

/** The envelopes-table row the exporter writes for `r`'s raw bytes (receipt columns taken from `r`). */
export function expectedEnvelopeRow(r: FileRow, epochSeconds: number): Row {
  return envelopeRow(storeRowOf(r, epochSeconds));
}

/** The feedback rows of FEEDBACK envelopes whose payload decodes (the store's rule, lib/store/envelopes/stage.ts). */
export function expectedFeedbackRows(envs: readonly EnvelopeRecord[], epochSeconds: number): Row[] {
  const epochOf = epochOfFn(epochSeconds);
  const out: Row[] = [];
  for (const e of envs) {
    if (e.msgType !== MsgType.FEEDBACK) continue;
    const f = decodeFeedback(e.payload);
    if (!f.ok) continue;
    out.push(
      feedbackRow({
        envelope_id: e.id,
        conversation_id: f.value.conversationId,
        from_agent: e.sender,
        target_agent: f.value.targetAgent,
        score: f.value.score,
        outcome: f.value.outcome,
        is_dispute: f.value.isDispute,
        role: f.value.role,
        ts: e.timestamp.toString(),
        epoch: String(epochOf(e.timestamp)),
        raw: e.raw,
      }),
    );
  }
  return out;
}

/**
 * Negotiation conversations of [fromUs, toUs): those with a PROPOSE dated in it (the store's selection), in protocol
 * order.
 */
export function negotiationConversations(
  envs: readonly EnvelopeRecord[],
  fromUs: bigint,
  toUs: bigint,
): EnvelopeRecord[][] {
  const by = new Map<string, EnvelopeRecord[]>();
  for (const e of envs) {
    const k = toHex(e.conversationId);
    const l = by.get(k);
    if (l) l.push(e);
    else by.set(k, [e]);
  }
  const out: EnvelopeRecord[][] = [];
  for (const k of [...by.keys()].sort()) {
    const conv = by.get(k)!;
    if (!conv.some((e) => e.msgType === MsgType.PROPOSE && e.timestamp >= fromUs && e.timestamp < toUs)) continue;
    conv.sort((a, b) =>
      a.timestamp !== b.timestamp
        ? a.timestamp < b.timestamp
          ? -1
          : 1
        : a.nonce !== b.nonce
          ? a.nonce < b.nonce
            ? -1
            : 1
          : a.seq < b.seq
            ? -1
            : a.seq > b.seq
              ? 1
              : 0,
    );
    out.push(conv);
  }
  return out;
}

/** The offers rows of the conversations. */
export function expectedOfferRows(convs: readonly EnvelopeRecord[][]): Row[] {
  return convs.flatMap((c) => offerRows(c));
}

/**
 * The negotiations rows of the conversations at `asOfUs`. A row the file states on chain brings
 * its Haggle account's part of the analytics (status for the outcome, escrow for the decay burned,
 * the roles it stated), rebuilt from that row's own on-chain columns; its on-chain columns are
 * copied, as nothing in the envelopes can re-derive them.
 */
export function expectedNegotiationRows(
  convs: readonly EnvelopeRecord[][],
  asOfUs: bigint,
  fileRows: ReadonlyMap<string, FileRow>,
): Row[] {
  const out: Row[] = [];
  for (const conv of convs) {
    const f = fileRows.get(toHex(conv[0].conversationId));
    const chain = f && f.onchain === true ? [chainOf(f)] : [];
    const roles =
      f && chain.length && typeof f.roles_source === 'string' && f.roles_source.split(',').includes('haggle')
        ? { buyer: f.buyer ? toHex(bytesOf(f.buyer)) : null, seller: f.seller ? toHex(bytesOf(f.seller)) : null }
        : undefined;
    const r = negotiationRecord(conv, asOfUs, chain, roles);
    if (!r) continue;
    // The on-chain columns are the chain indexer's, not derivable from envelopes: copied from the
    // file. A conversation the file has no row for is derived as off chain (the row is missing either way).
    const onchain: Row = f ? {} : onChainColumns([], r.gossip);
    if (f) for (const k of Object.keys(f)) if (ONCHAIN_COLUMNS.has(k)) onchain[k] = f[k];
    out.push({ ...r.row, ...onchain });
  }
  return out;
}

/** The part of a Haggle negotiation the analytics read, from a negotiations row's on-chain columns. */
function chainOf(f: FileRow): HaggleNegotiationRow {
  const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));
  return {
    buyer: f.onchain_buyer,
    seller: f.onchain_seller,
    status: f.onchain_status,
    transitions: [],
    deposit: big(f.escrow_deposited),
    decayed: big(f.escrow_decayed_total),
    decayBps: f.onchain_decay_bps,
    rounds: f.rounds_onchain,
  } as unknown as HaggleNegotiationRow;
}

/**
 * A cell as comparable text: what the Parquet file holds for `type` whichever reader produced it
 * (bytes as hex, integers and times as exact decimals of µs, doubles by their shortest text).
 */
export function cellText(type: ColumnType, v: unknown, c?: Pick<Column, 'item' | 'fields'>): string | null {
  if (type === 'list') {
    // A list compares item by item, each item (or struct field) as its own type's text.
    const w = parquetValue(type, v, c);
    if (w === null || w === undefined) return null;
    if (!Array.isArray(w)) return `not a list: ${String(w)}`;
    const fields = c?.fields;
    return JSON.stringify(
      w.map((x: unknown) =>
        fields
          ? Object.fromEntries(
              fields.map((f) => [
                f.name,
                typeof x === 'object' && x !== null ? cellText(f.type, (x as Row)[f.name]) : null,
              ]),
            )
          : cellText(c?.item ?? 'string', x),
      ),
    );
  }
  const w = parquetValue(type, v);
  if (w === null || w === undefined) return null;
  if (w instanceof Uint8Array) return type === 'bytes' ? toHex(w) : Buffer.from(w).toString('utf8');
  if (w instanceof Date) return (BigInt(w.getTime()) * 1000n).toString();
  if (typeof w === 'boolean') return w ? 'true' : 'false';
  return String(w);
}

export interface CellDifference {
  key: string;
  index: number | null;
  column: string;
  file: string | null;
  expected: string | null;
}

/**
 * Compares a table's file rows with the rows re-derived for it, matched by `key` (a column):
 * every cell of every row, plus rows only one side has (column `(row)`). `index` is the file row.
 * Re-derived rows that the writer would set aside (a value its column cannot hold) are left out
 * and counted.
 */
export function compareRows(
  schema: TableSchema,
  key: string,
  file: readonly FileRow[],
  expected: readonly Row[],
): { differences: CellDifference[]; setAside: number } {
  const keyType = schema.columns.find((c) => c.name === key)!.type;
  const exp = new Map<string, Row>();
  let setAside = 0;
  for (const r of expected) {
    if (schema.columns.some((c) => parquetMisfit(c, parquetValue(c.type, r[c.name], c)) !== null)) {
      setAside++;
      continue;
    }
    exp.set(cellText(keyType, r[key]) ?? '', r);
  }
  const differences: CellDifference[] = [];
  const seen = new Set<string>();
  file.forEach((f, index) => {
    const k = cellText(keyType, f[key]) ?? '';
    const e = exp.get(k);
    if (!e || seen.has(k)) {
      differences.push({ key: k, index, column: '(row)', file: 'present', expected: seen.has(k) ? 'once' : 'absent' });
      return;
    }
    seen.add(k);
    for (const c of schema.columns) {
      const a = cellText(c.type, f[c.name], c);
      const b = cellText(c.type, e[c.name], c);
      if (a !== b) differences.push({ key: k, index, column: c.name, file: a, expected: b });
    }
  });
  for (const k of exp.keys())
    if (!seen.has(k)) differences.push({ key: k, index: null, column: '(row)', file: 'absent', expected: 'present' });
  return { differences, setAside };
}
