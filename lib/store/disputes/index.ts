/**
 * lib/store/disputes: the dispute desk (lib/store/disputes/README.md).
 * DisputesPort: DISPUTE envelopes newest first, one with its opinions, and a checked opinion stored.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import {
  conversationPayloads,
  type DisputeCursor,
  type DisputeRow,
  disputeCounts,
  disputeOpinions,
  getDispute,
  type ListDisputesParams,
  listDisputes,
  type OpinionRow,
  saveDisputeOpinion,
  setDisputeReviewers,
} from './disputes';

export type {
  DisputeCursor,
  DisputeRow,
  ListDisputesParams,
  OpinionCounts,
  OpinionKind,
  OpinionRow,
} from './disputes';

/**
 * The dispute desk (disputes.ts): DISPUTE envelopes newest first, one with its opinions, and a checked opinion stored.
 */
export interface DisputesPort {
  listDisputes(p?: ListDisputesParams): Promise<{ disputes: DisputeRow[]; next: DisputeCursor | null }>;
  disputeCounts(): Promise<{ total: number; open: number; reviewed: number }>;
  getDispute(id: Uint8Array): Promise<DisputeRow | null>;
  disputeOpinions(id: Uint8Array): Promise<OpinionRow[]>;
  saveDisputeOpinion(
    o: Omit<OpinionRow, 'receivedAt'> & { receivedAt?: Date },
  ): Promise<'saved' | 'replaced' | 'unchanged' | 'older'>;
  /**
   * Marks the opinions of exactly these reviewers as counted (the deployment's list, at start); how many rows changed.
   */
  setDisputeReviewers(reviewers: readonly Uint8Array[]): Promise<number>;
  conversationPayloads(conversationId: Uint8Array, types: readonly number[]): ReturnType<typeof conversationPayloads>;
}

export function disputesPort({ db, live }: PortContext): DisputesPort {
  return {
    listDisputes: (p) => live(() => listDisputes(db, p)),
    disputeCounts: () => live(() => disputeCounts(db)),
    getDispute: (id) => live(() => getDispute(db, id)),
    disputeOpinions: (id) => live(() => disputeOpinions(db, id)),
    saveDisputeOpinion: (o) => live(() => saveDisputeOpinion(db, o)),
    setDisputeReviewers: (reviewers) => live(() => setDisputeReviewers(db, reviewers)),
    conversationPayloads: (conversationId, types) => live(() => conversationPayloads(db, conversationId, types)),
  };
}
