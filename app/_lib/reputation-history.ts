/**
 * An agent's reputation over time (lib/wire ReputationHistoryView): the gossip fold replayed over
 * the stored FEEDBACK about it, and the authoritative fold (docs/protocol.md §7) after each of
 * its verified batches, rebuilt from the uploaded epoch logs with lib/protocol only (no chain
 * code in the web bundle). Epoch e is placed at the end of the epoch, e+1 × EPOCH_SECONDS.
 */
import 'server-only';
import { buildBatchFromLog } from '../../lib/protocol/batch-build';
import type { BehaviorBatch } from '../../lib/protocol/batch';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { applyFeedback, emptyReputation, foldBatches, type ReputationState } from '../../lib/protocol/reputation';
import type { Envelope } from '../../lib/protocol/types';
import type { ReputationHistoryView } from '../../lib/wire';
import type { Services } from './services';

const ONE = 1_000_000;
const point = (tMs: number, s: ReputationState) => ({ tMs, reliability: Number(s.reliabilityScore) / ONE, cooperation: Number(s.cooperationIndex) / ONE });

export async function loadReputationHistory(o: Services, agent: Uint8Array): Promise<ReputationHistoryView> {
  const store = o.observatory.store;
  const fb = await store.feedbackFor(agent);
  let g = emptyReputation();
  const gossip = fb.map((f) => {
    g = applyFeedback(g, f);
    return point(Number(f.timestamp / 1000n), g);
  });
  const rows = (await store.listBatches({ agent })).filter((r) => r.status === 'verified');
  const batches: BehaviorBatch[] = [];
  const authoritative: ReputationHistoryView['authoritative'] = [];
  const epochMs = o.config.epochSeconds * 1000;
  const fromEpoch = rows.length ? rows[0].epoch : 0n;
  for (const r of rows) {
    const log = await store.epochLog(agent, r.epoch);
    const envs: Envelope[] = [];
    for (const e of log) {
      const d = e.raw ? decodeEnvelope(e.raw) : null;
      if (d?.ok) envs.push(d.envelope);
    }
    if (envs.length !== log.length || envs.length === 0) continue;
    batches.push(buildBatchFromLog({ agentId: agent, epochNumber: r.epoch, slotStart: 0n, slotEnd: 0n, envelopes: envs }));
    const state = foldBatches({ batches, fromEpoch, toEpoch: r.epoch });
    authoritative.push({ ...point(Number(r.epoch + 1n) * epochMs, state), epoch: r.epoch.toString() });
  }
  return { gossip, authoritative };
}
