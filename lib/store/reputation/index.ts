/**
 * lib/store/reputation: reputation vectors and their history (lib/store/reputation/README.md).
 * ReputationPort: the gossip fold and the batch rows, the stored points, and how much of an
 * agent's FEEDBACK is backed by stake or a deal.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import type { ReputationRow } from '../types';
import { type FeedbackBacking, feedbackBacking, unbackedSenders } from './feedback-backing';
import { gossipReputation } from './reputation';
import { backfillBatchPoints, type PointKind, type ReputationPoint, readReputationPoints } from './reputation-points';

export type { FeedbackBacking } from './feedback-backing';
export type { PointKind, ReputationPoint } from './reputation-points';

export interface ReputationPort {
  getReputation(agentId: Uint8Array, kind?: 'gossip' | 'batch'): Promise<ReputationRow | null>;
  /** Writes a reputation row as given (a gossip row folds no feedback then: the next read refolds if there is any). */
  upsertReputation(row: Omit<ReputationRow, 'updatedAt'> & { updatedAt?: Date }): Promise<void>;
  /** The newest `limit` stored reputation points of one kind, oldest first (reputation-points.ts). */
  reputationPoints(
    agent: Uint8Array,
    kind: PointKind,
    limit: number,
  ): Promise<{ points: ReputationPoint[]; more: boolean }>;
  /** Folds verified batches that have no authoritative point yet, at most `limit` (reputation-points.ts). */
  backfillBatchPoints(limit?: number): Promise<{ looked: number; folded: number }>;
  /**
   * Per agent: FEEDBACK about it and how much comes from senders with no stake and no deal with it
   * (feedback-backing.ts).
   */
  feedbackBacking(agents: readonly Uint8Array[]): Promise<Map<string, FeedbackBacking>>;
  unbackedSenders(agent: Uint8Array): Promise<Set<string>>;
}

export function reputationPort({ db, prisma, live }: PortContext): ReputationPort {
  return {
    getReputation: (agentId, kind = 'gossip') =>
      live(async (): Promise<ReputationRow | null> => {
        if (kind === 'gossip') {
          // The stored fold brought up to date with the feedback stored since (reputation.ts).
          const g = await gossipReputation(db, agentId);
          return g ? { ...g, agentId: new Uint8Array(agentId), kind } : null;
        }
        const r = await prisma.reputationState.findUnique({
          where: { agentId_kind: { agentId: new Uint8Array(agentId), kind } },
        });
        return r
          ? {
              agentId: new Uint8Array(r.agentId),
              kind: r.kind as 'gossip' | 'batch',
              reliabilityScore: r.reliabilityScore,
              cooperationIndex: r.cooperationIndex,
              notaryAccuracy: r.notaryAccuracy,
              totalTasks: r.totalTasks,
              totalNotarized: r.totalNotarized,
              totalDisputes: r.totalDisputes,
              lastEpoch: r.lastEpoch,
              updatedAt: r.updatedAt,
            }
          : null;
      }),
    upsertReputation: (row) =>
      live(async () => {
        const data = {
          ...row,
          agentId: new Uint8Array(row.agentId),
          updatedAt: row.updatedAt ?? new Date(),
          folded: 0,
          lastTs: null,
          lastFeedback: null,
        };
        await prisma.reputationState.upsert({
          where: { agentId_kind: { agentId: data.agentId, kind: row.kind } },
          create: data,
          update: data,
        });
      }),
    reputationPoints: (agent, kind, limit) => live(() => readReputationPoints(db, agent, kind, limit)),
    backfillBatchPoints: (limit) => live(() => backfillBatchPoints(db, limit)),
    feedbackBacking: (agents) => live(() => feedbackBacking(db, agents)),
    unbackedSenders: (agent) => live(() => unbackedSenders(db, agent)),
  };
}
