/**
 * One-click challenges: the entries of an agent's uploaded epoch log that put an item into its
 * batch (a bid, a task selection, a verifier assignment; docs/protocol.md §6 and
 * lib/protocol/batch-build.ts), whether the batch the agent submitted reports each, and the
 * evidence a challenger needs (lib/chain/evidence.ts: leaf, buffer bytes with the §5 merkle
 * proof and the batch CBOR, the entry's signing preimage and signature).
 *
 * The batch is the one the agent uploaded with its log whose hash is the on-chain batch_hash
 * (lib/store/logs/batch-upload.ts): the only batch the challenge program accepts as evidence. Only
 * entries the agent itself sent, whose signature verifies against the batch's signer (the identity
 * owner), are offered: that is what resolve_challenge checks. An entry signed by a delegate hot
 * wallet (SATI DelegateV1) cannot be proven to the program, so a challenge of it could never be
 * resolved and would only expire, forfeiting the challenger's stake; such entries are counted as
 * `unprovable`, never offered. Matching is by multiset: an item the log yields twice must be
 * reported twice.
 */

import { PublicKey } from '../chain';
import { challengeEvidence } from '../chain/evidence';
import { type BehaviorBatch, decodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { verifyEnvelopeSignature } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import type { Envelope } from '../protocol/types';
import type { ChallengeCandidateList } from '../wire';
import type { IndexerStore } from './types';
import { uploadedEpochLog } from './verify';

/** Entries the batch reports are offered too (challenging one loses), at most this many. */
export const MAX_REPORTED_CANDIDATES = 20;

/** What the candidates read from the store. */
export interface CandidateStore extends Pick<IndexerStore, 'epochLog'> {
  onChainBatchUpload(agent: Uint8Array, epoch: bigint): Promise<Uint8Array | null>;
  listBatches(p: { agent: Uint8Array; epoch: bigint; limit: number }): Promise<{ data?: unknown }[]>;
}

type Item = { kind: 'bid' | 'task selection' | 'verifier assignment'; key: string; text: string };

/** The batch items one envelope yields in `agent`'s batch, with a key for matching. */
export function itemsOf(agent: Uint8Array, epoch: bigint, e: Envelope): Item[] {
  const b = buildBatchFromLog({ agentId: agent, epochNumber: epoch, slotStart: 0n, slotEnd: 0n, envelopes: [e] });
  return [
    ...b.bidValues.map((x) => ({
      kind: 'bid' as const,
      key: `b:${toHex(x.conversationId)}:${toHex(x.counterparty)}:${x.bidValue}:${x.slot}`,
      text: `bid ${x.bidValue} to ${toHex(x.counterparty).slice(0, 8)}…`,
    })),
    ...b.taskSelections.map((x) => ({
      kind: 'task selection' as const,
      key: `t:${toHex(x.conversationId)}:${toHex(x.counterparty)}:${x.slot}`,
      text: `task selection with ${toHex(x.counterparty).slice(0, 8)}…`,
    })),
    ...b.verifierIds.map((x) => ({
      kind: 'verifier assignment' as const,
      key: `v:${toHex(x.conversationId)}:${toHex(x.verifierId)}:${x.slot}`,
      text: `verifier assignment of ${toHex(x.verifierId).slice(0, 8)}…`,
    })),
  ];
}

/** Counts of every item key the batch reports. */
function reported(batch: BehaviorBatch): Map<string, number> {
  const m = new Map<string, number>();
  const add = (k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const x of batch.bidValues) add(`b:${toHex(x.conversationId)}:${toHex(x.counterparty)}:${x.bidValue}:${x.slot}`);
  for (const x of batch.taskSelections) add(`t:${toHex(x.conversationId)}:${toHex(x.counterparty)}:${x.slot}`);
  for (const x of batch.verifierIds) add(`v:${toHex(x.conversationId)}:${toHex(x.verifierId)}:${x.slot}`);
  return m;
}

/** Every entry the agent sent that yields a batch item, contradicted ones first (module comment). */
export async function challengeCandidates(
  store: CandidateStore,
  agent: Uint8Array,
  epoch: bigint,
): Promise<ChallengeCandidateList> {
  const [log, cbor, rows] = await Promise.all([
    uploadedEpochLog(store, agent, epoch),
    store.onChainBatchUpload(agent, epoch),
    store.listBatches({ agent, epoch, limit: 1 }),
  ]);
  const signer = (rows[0]?.data as { signer?: unknown } | null)?.signer;
  const none = { candidates: [], unprovable: 0 };
  if (!log || !cbor || typeof signer !== 'string') return none;
  const d = decodeBatch(cbor);
  if (!d.ok) return none;
  const signerKey = new PublicKey(signer).toBytes();
  let unprovable = 0;
  const batch = d.value;
  const left = reported(batch);
  const found: { index: number; contradicted: boolean; reason: string }[] = [];
  log.forEach((e, index) => {
    if (Buffer.compare(e.sender, agent) !== 0) return;
    const items = itemsOf(agent, epoch, e);
    // Still matched against the batch, so the multiset counts of the provable entries stay right.
    const provable = items.length === 0 || verifyEnvelopeSignature(e, signerKey);
    if (!provable) unprovable++;
    for (const it of items) {
      const n = left.get(it.key) ?? 0;
      if (n > 0) left.set(it.key, n - 1);
      if (!provable) continue;
      found.push(
        n > 0
          ? { index, contradicted: false, reason: `${it.text}: reported in the batch` }
          : { index, contradicted: true, reason: `${it.text}: missing from the batch` },
      );
      if (n === 0) break;
    }
  });
  const bad = found.filter((f) => f.contradicted);
  const good = found
    .filter((f) => !f.contradicted && !bad.some((b) => b.index === f.index))
    .slice(0, MAX_REPORTED_CANDIDATES);
  const agentKey = new PublicKey(agent);
  const candidates = [...bad, ...good].map((f) => {
    const ev = challengeEvidence({ log, index: f.index, batch });
    return {
      agent: toHex(agent),
      agentAddress: agentKey.toBase58(),
      epoch: epoch.toString(),
      index: f.index,
      contradicted: f.contradicted,
      reason: f.reason,
      signer,
      leaf: toHex(ev.leaf),
      bytes: toHex(ev.bytes),
      preimage: toHex(ev.preimage),
      signature: toHex(ev.signature),
    };
  });
  return { candidates, unprovable };
}
