/**
 * Canonical row order (docs/datasets.md "Row order"): every release file is written in one
 * declared order per table, and verify-dataset fails a file whose rows are out of it. Reordering
 * changes no cell, but a reader that takes "the first row" or a row's position (offers' `step`
 * follows it) would read something else, and a signed release should leave the publisher no
 * free choice: each table's order is a property of its content.
 */
import { decodeEnvelope } from '../protocol/envelope';
import type { CheckResult } from './verify-chain';

type FileRow = Record<string, unknown>;

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');
const idText = (v: unknown) =>
  typeof v === 'string' ? v : v instanceof Uint8Array ? hx(v) : v === null || v === undefined ? '' : String(v);
const num = (v: unknown) =>
  v === null || v === undefined ? -1n : v instanceof Date ? BigInt(v.getTime()) * 1000n : BigInt(String(v));

/** A sort key part: a bigint (numeric order) or a string (byte order: ids are lowercase hex, addresses ASCII). */
type Part = bigint | string;
const cmp = (a: readonly Part[], b: readonly Part[]): number => {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    return x < y ? -1 : 1;
  }
  return 0;
};

/** Context rows: by the raw envelope's conversation, timestamp and nonce, then seq (protocol order). */
function contextKey(r: FileRow): Part[] {
  const d = r.raw instanceof Uint8Array ? decodeEnvelope(r.raw) : null;
  if (!d?.ok) return ['', -1n, -1n, num(r.seq)];
  return [hx(d.envelope.conversationId), d.envelope.timestamp, d.envelope.nonce, num(r.seq)];
}

/**
 * Each table's canonical order: the key of a row, and whether equal keys are allowed (never: each key names one row).
 */
export const ROW_ORDER: Record<string, { doc: string; key: (r: FileRow) => Part[] }> = {
  envelopes: { doc: 'seq', key: (r) => [num(r.seq)] },
  context: { doc: 'conversation_id, timestamp, nonce, seq (of the raw envelope)', key: contextKey },
  offers: { doc: 'conversation_id, step', key: (r) => [idText(r.conversation_id), num(r.step)] },
  negotiations: { doc: 'conversation_id', key: (r) => [idText(r.conversation_id)] },
  feedback: { doc: 'envelope_id', key: (r) => [idText(r.envelope_id)] },
  batches: { doc: 'epoch, agent_id', key: (r) => [num(r.epoch), idText(r.agent_id)] },
  challenges: { doc: 'address (byte order)', key: (r) => [idText(r.address)] },
  reconciliation: { doc: 'epoch, agent_id', key: (r) => [num(r.epoch), idText(r.agent_id)] },
  disputes: { doc: 'disputed_at, dispute_id', key: (r) => [num(r.disputed_at), idText(r.dispute_id)] },
};

/** One check per file: its rows strictly in the table's canonical order, or the first row out of it. */
export function orderChecks(tag: string, files: Partial<Record<string, FileRow[]>>): CheckResult[] {
  const out: CheckResult[] = [];
  for (const [table, order] of Object.entries(ROW_ORDER)) {
    const rows = files[table];
    if (!rows || rows.length < 2) continue;
    let prev = order.key(rows[0]);
    let bad = -1;
    for (let i = 1; i < rows.length && bad < 0; i++) {
      const k = order.key(rows[i]);
      if (cmp(prev, k) >= 0) bad = i;
      prev = k;
    }
    out.push(
      bad < 0
        ? { name: `${tag} ${table}: rows in canonical order (${order.doc})`, ok: true }
        : {
            name: `${tag} ${table} row ${bad} column (order)`,
            ok: false,
            detail: `row ${bad} does not come after row ${bad - 1} in the canonical order (${order.doc})`,
          },
    );
  }
  return out;
}
