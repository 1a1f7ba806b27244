/**
 * An agent's reputation over time (lib/wire ReputationHistoryView): the newest stored points of
 * the gossip fold (its state at the end of each epoch with FEEDBACK about the agent) and of the
 * authoritative fold (docs/protocol.md §7, after each verified batch), lib/store
 * reputation-points.ts. Two index reads of at most HISTORY_POINTS rows each, whatever the agent's
 * history; the chart says when older epochs are left out. A point is placed at the end of its
 * epoch, e+1 × EPOCH_SECONDS (the current epoch's at now).
 */
import 'server-only';
import type { ReputationHistoryView } from '../../lib/wire';
import type { Services } from './services';

/** Points per series the page draws: the newest epochs. */
export const HISTORY_POINTS = 240;
const ONE = 1_000_000;

export async function loadReputationHistory(
  o: Services,
  agent: Uint8Array,
  nowMs = Date.now(),
): Promise<ReputationHistoryView> {
  const store = o.reads;
  const epochMs = o.config.epochSeconds * 1000;
  const [g, b] = await Promise.all([
    store.reputationPoints(agent, 'gossip', HISTORY_POINTS),
    store.reputationPoints(agent, 'batch', HISTORY_POINTS),
  ]);
  const at = (epoch: bigint) => Math.min(Number(epoch + 1n) * epochMs, nowMs);
  const point = (p: (typeof g.points)[number]) => ({
    tMs: at(p.epoch),
    reliability: Number(p.state.reliabilityScore) / ONE,
    cooperation: Number(p.state.cooperationIndex) / ONE,
  });
  return {
    gossip: g.points.map(point),
    authoritative: b.points.map((p) => ({ ...point(p), epoch: p.epoch.toString() })),
    gossipEarlier: g.more,
    authoritativeEarlier: b.more,
  };
}
