/**
 * The batches table's verdicts and the reconciliation table re-derived from a release's own
 * files (docs/datasets.md "Verifying a release"): a batch's `status` and `uploaded_log_root` from
 * its uploaded log (the manifest's `log`) against its root, and each reconciliation row from the
 * envelopes the observer saw live (`seen_via`, `gossip_topic`, `first_seen`) and the committed logs,
 * by the store's rule (lib/store/reconciliation/reconciliation.ts). Only `computed_at`, when the store computed the
 * row, is taken as stated: the row counts what was stored by then (`first_seen` at or before it).
 */

import { buildBatchFromLog } from '../protocol/batch-build';
import { decodeEnvelope } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { decodeFeedback } from '../protocol/payloads';
import { type Envelope, MsgType } from '../protocol/types';
import type { Row } from './schema';

type FileRow = Record<string, unknown>;
type Batch = { agent: string; root: string; log: string[] };

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');
const idText = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? hx(v) : String(v));
const usOf = (v: unknown): bigint => (v instanceof Date ? BigInt(v.getTime()) * 1000n : BigInt(String(v)));

/** The §5 root of a batch's uploaded log, hex; null when the log is empty or an entry is not in `byId`. */
export function logRoot(b: Batch, byId: ReadonlyMap<string, Envelope>): string | null {
  if (b.log.length === 0 || b.log.some((id) => !byId.has(id))) return null;
  return hx(merkleRoot(b.log.map((id) => leafHash(logEntryOf(byId.get(id)!)))));
}

/**
 * The batches rows as the indexer's check (lib/indexer/verify.ts) sets their verdict: no uploaded
 * log → unverified; the log's root equal to the batch root → verified, else mismatch, with
 * `uploaded_log_root` the log's root. The indexer also fails a batch whose on-chain summary counts
 * disagree with its log: with the chain's counts (`chainCounts`, verify-dataset --rpc) that is
 * decided too; without them a matching root stated `mismatch` is left as stated.
 */
export function expectedBatchRows(
  rows: readonly FileRow[],
  batches: readonly Batch[],
  byId: ReadonlyMap<string, Envelope>,
  epoch: bigint,
  chainCounts?: ReadonlyMap<string, Record<string, string>>,
): Row[] {
  const byAgent = new Map(batches.map((b) => [b.agent, b]));
  return rows.map((r) => {
    const b = byAgent.get(idText(r.agent_id));
    if (!b) return r;
    if (b.log.length === 0) return { ...r, status: 'unverified' };
    const root = logRoot(b, byId);
    if (root === null) return r; // a log entry missing from the release fails on its own
    const counts = chainCounts?.get(b.agent);
    const sameCounts = counts ? countsEqual(counts, b, byId, epoch) : r.status !== 'mismatch';
    return {
      ...r,
      status: root === idText(r.log_merkle_root) && sameCounts ? 'verified' : 'mismatch',
      uploaded_log_root: root,
    };
  });
}

/** The log's summary counts (buildBatchFromLog) equal the ones the chain records for the batch. */
function countsEqual(
  counts: Record<string, string>,
  b: Batch,
  byId: ReadonlyMap<string, Envelope>,
  epoch: bigint,
): boolean {
  const built = buildBatchFromLog({
    agentId: Uint8Array.from(Buffer.from(b.agent, 'hex')),
    epochNumber: epoch,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: b.log.map((id) => byId.get(id)!),
  });
  const mine: Record<string, string> = {
    messageCount: built.messageCount.toString(),
    bidCount: String(built.bidValues.length),
    taskCount: String(built.taskSelections.length),
    verifierCount: String(built.verifierIds.length),
    feedbackCount: String(built.feedbackEvents.length),
    overflow: built.overflow ? '1' : '0',
  };
  return Object.keys(mine).every((k) => counts[k] === undefined || counts[k] === mine[k]);
}

interface Live {
  id: string;
  e: Envelope;
  via: string;
  topic: string | null;
  firstSeen: bigint;
  target: string | null;
}

/** The topic bucket of an envelope the observer saw live (the store's `sent` CTE). */
function bucket(l: Live): string | null {
  if (l.via === 'stream') return 'stream';
  const t: Record<string, string> = {
    '/0x01/v1/broadcast': 'broadcast',
    '/0x01/v1/notary': 'notary',
    '/0x01/v1/reputation': 'reputation',
  };
  return l.topic ? (t[l.topic] ?? null) : null;
}

/**
 * The reconciliation rows of the release's batches with a verdict (verified or mismatch; figures
 * only for verified), each as of its stated `computed_at` (matched by agent; a row the file lacks
 * is derived with a null `computed_at`, so it shows as missing). `envelopes` are the epoch's
 * envelope rows, `status` each agent's batch verdict as re-derived.
 */
export function expectedReconciliationRows(
  epoch: number,
  envelopes: readonly FileRow[],
  batches: readonly Batch[],
  status: ReadonlyMap<string, string>,
  fileRows: readonly FileRow[],
): Row[] {
  const live: Live[] = [];
  const stored = new Map<string, { via: string; firstSeen: bigint }>();
  for (const r of envelopes) {
    const d = r.raw instanceof Uint8Array ? decodeEnvelope(r.raw) : null;
    if (!d?.ok) continue;
    const e = d.envelope;
    const id = idText(r.id);
    const firstSeen = usOf(r.first_seen);
    stored.set(id, { via: String(r.seen_via), firstSeen });
    const f = e.msgType === MsgType.FEEDBACK ? decodeFeedback(e.payload) : null;
    live.push({
      id,
      e,
      via: String(r.seen_via),
      topic: r.gossip_topic === null || r.gossip_topic === undefined ? null : String(r.gossip_topic),
      firstSeen,
      target: f?.ok ? hx(f.value.targetAgent) : null,
    });
  }
  const logs = new Map(batches.map((b) => [b.agent, new Set(b.log)]));
  const computedAt = new Map(fileRows.map((r) => [idText(r.agent_id), r.computed_at]));
  const out: Row[] = [];
  for (const b of batches) {
    const st = status.get(b.agent);
    if (st !== 'verified' && st !== 'mismatch') continue;
    const at = computedAt.get(b.agent);
    const atUs = at === undefined || at === null ? null : usOf(at);
    const row: Row = {
      agent_id: b.agent,
      epoch: BigInt(epoch),
      batch_status: st,
      log_entries: b.log.length,
      computed_at: at ?? null,
    };
    const figures = [
      'seen',
      'seen_logged',
      'seen_not_logged',
      'logged_not_seen',
      ...['broadcast', 'notary', 'reputation', 'stream'].flatMap((t) => [`seen_${t}`, `committed_${t}`]),
    ];
    for (const c of figures) row[c] = null;
    if (st === 'verified' && atUs !== null) {
      const by = (l: Live) => l.via !== 'upload' && l.firstSeen <= atUs;
      const lg = logs.get(b.agent)!;
      const mine = live.filter(
        (l) => by(l) && (hx(l.e.sender) === b.agent || hx(l.e.recipient) === b.agent || l.target === b.agent),
      );
      const sent = mine.filter((l) => hx(l.e.sender) === b.agent);
      const peers = new Set([
        b.agent,
        ...sent.map((l) => hx(l.e.recipient)),
        ...sent.filter((l) => l.target).map((l) => l.target!),
      ]);
      const committed = new Set<string>();
      for (const p of peers) if (status.get(p) === 'verified') for (const id of logs.get(p) ?? []) committed.add(id);
      const lseen = [...lg].filter((id) => {
        const s = stored.get(id);
        return s !== undefined && s.via !== 'upload' && s.firstSeen <= atUs;
      }).length;
      row.seen = mine.length;
      row.seen_logged = mine.filter((l) => lg.has(l.id)).length;
      row.seen_not_logged = mine.length - (row.seen_logged as number);
      row.logged_not_seen = lg.size - lseen;
      for (const t of ['broadcast', 'notary', 'reputation', 'stream']) {
        const inT = sent.filter((l) => bucket(l) === t);
        row[`seen_${t}`] = inT.length;
        row[`committed_${t}`] = inT.filter((l) => committed.has(l.id)).length;
      }
    }
    out.push(row);
  }
  return out;
}
