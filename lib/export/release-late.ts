/**
 * Late data in an epoch already released (docs/datasets.md "Final states: revisions"): envelopes
 * dated in the epoch that arrive after its release, logs uploaded later, batch verdicts and
 * challenges that change. The release writer compares what the store holds for the epoch with the
 * latest manifest (row counts per table, each batch's status and root, and every Haggle
 * negotiation or challenge of the epoch that moved on chain after the manifest's `chainSlot`) and
 * writes a revision naming what differs, final releases included: a `final` release says nothing
 * more moves on its own, not that the observer can learn nothing more. A release states the
 * chain at its `chainSlot`; a later move is this check's to record, not the verifier's to fail.
 */

import { toHex } from '../protocol/hex';
import type { ExportSource } from '../store/export';

/** What the check reads of a manifest (release.ts ReleaseManifest; not imported: release.ts runs this check). */
interface LatestManifest {
  epoch: number;
  epochSeconds: number;
  revision: number;
  tables: Record<string, { rows: number; setAside?: number }>;
  chainSlot?: string | null;
  batches: { agent: string; root: string; status: string; log: string[] }[];
}

/** Tables whose rows the store can count cheaply for an epoch (the export's own filter). */
const COUNTED = ['envelopes', 'feedback', 'batches', 'challenges', 'reconciliation', 'disputes'] as const;

/** Why the store's view of `m`'s epoch differs from `m` (empty: nothing new). */
export async function lateChanges(source: ExportSource, m: LatestManifest): Promise<string[]> {
  const e = BigInt(m.epochSeconds) * 1_000_000n;
  const filter = { fromUs: BigInt(m.epoch) * e, toUs: BigInt(m.epoch + 1) * e };
  const out: string[] = [];
  for (const t of COUNTED) {
    const stated = m.tables[t] ? m.tables[t].rows + (m.tables[t].setAside ?? 0) : 0;
    const now = await source.count(t, filter);
    if (now !== stated) out.push(`${t}: ${now} row(s) in the store, ${stated} in revision ${m.revision}`);
  }
  const listed = new Map(m.batches.map((b) => [b.agent, b]));
  for (const b of await source.batchRoots(BigInt(m.epoch))) {
    const agent = toHex(b.agent_id as Uint8Array);
    const was = listed.get(agent);
    if (!was) continue; // a new batch changes the batches count above
    if (was.log.length === 0 && (await source.epochLogIds(b.agent_id as Uint8Array, BigInt(m.epoch))).length > 0)
      out.push(`batch of ${agent.slice(0, 16)}: its log was uploaded`);
    else if (String(b.status) !== was.status)
      out.push(
        `batch of ${agent.slice(0, 16)}: ${was.status} → ${String(b.status)}` +
          (was.status === 'unverified' ? ' (its log was uploaded)' : ''),
      );
    else if (toHex(b.root as Uint8Array) !== was.root)
      out.push(`batch of ${agent.slice(0, 16)}: another root on chain`);
  }
  if (m.chainSlot) out.push(...(await movedOnChain(source, filter, BigInt(m.chainSlot))));
  return out;
}

/** The epoch's Haggle negotiations and challenges the store saw move after `slot`. */
async function movedOnChain(
  source: ExportSource,
  filter: { fromUs: bigint; toUs: bigint },
  slot: bigint,
): Promise<string[]> {
  const moved = new Set<string>();
  for await (const pg of source.scanNegotiations(filter, { pageSize: 500 })) {
    for (const n of pg.onChain)
      if (n.slot > slot)
        moved.add(
          `negotiation ${toHex(n.conversationId)}: moved on chain after slot ${slot} (at ${n.address}, slot ${n.slot})`,
        );
  }
  for await (const page of source.scan('challenges', filter, { pageSize: 500 })) {
    for (const r of page)
      if (BigInt(String(r.slot)) > slot)
        moved.add(
          `challenge ${String(r.address)}: moved on chain after slot ` +
            `${slot} (${String(r.status)} at slot ${String(r.slot)})`,
        );
  }
  return [...moved].sort();
}
