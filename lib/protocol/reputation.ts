/**
 * Reputation arithmetic (docs/protocol.md §7): exact int64 fixed point (ONE = 1,000,000), the
 * real-time gossip fold, the epoch decay and the authoritative fold from batches.
 */

import type { BehaviorBatch, FeedbackEvent } from './batch';
import { DECAY_DENOMINATOR, DECAY_IDLE_EPOCHS, DECAY_NUMERATOR, REPUTATION_ONE } from './constants';
import { compareBytes } from './order';

/** One agent's reputation vector (docs/protocol.md §7). All values exact integers. */
export interface ReputationState {
  reliabilityScore: bigint;
  cooperationIndex: bigint;
  notaryAccuracy: bigint;
  totalTasks: bigint;
  totalNotarized: bigint;
  totalDisputes: bigint;
}

/** The fields of a feedback the folds need. */
export interface FeedbackInput {
  /** -100..100 */
  score: number;
  /** 0 negative, 1 neutral, 2 positive */
  outcome: number;
  /** Counted into total_disputes by the gossip fold only. */
  isDispute?: boolean;
  /** 0 participant, 1 notary */
  role: number;
}

/** The neutral starting state: every field 0. */
export function emptyReputation(): ReputationState {
  return {
    reliabilityScore: 0n,
    cooperationIndex: 0n,
    notaryAccuracy: 0n,
    totalTasks: 0n,
    totalNotarized: 0n,
    totalDisputes: 0n,
  };
}

const OUTCOME_VALUE = [-100n, 0n, 100n] as const;

/** trunc((old·n + x·ONE) / (n+1)); BigInt division truncates toward zero as §7 requires. */
function fold(old: bigint, n: bigint, x: bigint): bigint {
  return (old * n + x * REPUTATION_ONE) / (n + 1n);
}

function checkFeedback(fb: FeedbackInput): void {
  if (!Number.isInteger(fb.score) || fb.score < -100 || fb.score > 100)
    throw new RangeError('fb.score must be in -100..100');
  if (!Number.isInteger(fb.outcome) || fb.outcome < 0 || fb.outcome > 2)
    throw new RangeError('fb.outcome must be 0, 1 or 2');
  if (fb.role !== 0 && fb.role !== 1) throw new RangeError('fb.role must be 0 or 1');
}

function foldOne(state: ReputationState, fb: FeedbackInput, countDispute: boolean): ReputationState {
  checkFeedback(fb);
  const s = BigInt(fb.score);
  const next = { ...state };
  if (fb.role === 0) {
    const n = state.totalTasks;
    next.reliabilityScore = fold(state.reliabilityScore, n, s);
    next.cooperationIndex = fold(state.cooperationIndex, n, OUTCOME_VALUE[fb.outcome]);
    next.totalTasks = n + 1n;
  } else {
    const n = state.totalNotarized;
    next.notaryAccuracy = fold(state.notaryAccuracy, n, s);
    next.totalNotarized = n + 1n;
  }
  if (countDispute && fb.isDispute) next.totalDisputes = state.totalDisputes + 1n;
  return next;
}

/** Real-time gossip fold of one FEEDBACK aimed at the agent (docs/protocol.md §7). Returns a new state. */
export function applyFeedback(state: ReputationState, fb: FeedbackInput): ReputationState {
  return foldOne(state, fb, true);
}

/** One idle-epoch decay (docs/protocol.md §7): reliability and cooperation × 95 / 100, truncated. */
export function applyEpochDecay(state: ReputationState): ReputationState {
  return {
    ...state,
    reliabilityScore: (state.reliabilityScore * DECAY_NUMERATOR) / DECAY_DENOMINATOR,
    cooperationIndex: (state.cooperationIndex * DECAY_NUMERATOR) / DECAY_DENOMINATOR,
  };
}

/** Orders feedback events by (slot, conversation_id, from_agent) as §7 requires. */
export function compareFeedbackEvents(a: FeedbackEvent, b: FeedbackEvent): number {
  if (a.slot !== b.slot) return a.slot < b.slot ? -1 : 1;
  return compareBytes(a.conversationId, b.conversationId) || compareBytes(a.fromAgent, b.fromAgent);
}

/** Parameters of {@link foldBatches}. */
export interface FoldBatchesParams {
  /** The agent's accepted batches (any order; feedback events are the feedback it received). */
  batches: readonly BehaviorBatch[];
  /** First epoch of the fold (e.g. registration); idle epochs are counted from here. */
  fromEpoch: bigint;
  /** Last epoch folded, inclusive: the state is as at the end of this epoch. */
  toEpoch: bigint;
  /** Starting state; defaults to {@link emptyReputation}. */
  initial?: ReputationState;
}

/** Longest epoch range foldBatches walks (caller misuse guard). */
export const MAX_FOLD_EPOCHS = 10_000_000n;

/**
 * Authoritative fold (docs/protocol.md §7): per epoch, the batch feedback events in
 * (slot, conversation_id, from_agent) order, disputes summed from `disputes`, then the decay at
 * the end of every epoch closing a run of DECAY_IDLE_EPOCHS epochs without a batch.
 */
export function foldBatches(params: FoldBatchesParams): ReputationState {
  const { batches, fromEpoch, toEpoch } = params;
  if (!Array.isArray(batches)) throw new TypeError('params.batches must be an array');
  if (typeof fromEpoch !== 'bigint' || typeof toEpoch !== 'bigint')
    throw new TypeError('params.fromEpoch and params.toEpoch must be bigint');
  if (toEpoch < fromEpoch - 1n || toEpoch - fromEpoch > MAX_FOLD_EPOCHS)
    throw new RangeError('params.toEpoch out of range');
  const byEpoch = new Map<bigint, BehaviorBatch[]>();
  for (const b of batches) {
    if (b.epochNumber < fromEpoch || b.epochNumber > toEpoch) continue;
    const list = byEpoch.get(b.epochNumber) ?? [];
    list.push(b);
    byEpoch.set(b.epochNumber, list);
  }
  let state = params.initial ? { ...params.initial } : emptyReputation();
  let lastBatchEpoch = fromEpoch - 1n;
  for (let e = fromEpoch; e <= toEpoch; e++) {
    const list = byEpoch.get(e);
    if (list) {
      lastBatchEpoch = e;
      const events = list.flatMap((b) => b.feedbackEvents).sort(compareFeedbackEvents);
      for (const ev of events) state = foldOne(state, ev, false);
      for (const b of list) state.totalDisputes += b.disputes;
    } else if (e - lastBatchEpoch >= BigInt(DECAY_IDLE_EPOCHS)) {
      state = applyEpochDecay(state);
    }
  }
  return state;
}

/**
 * `count` idle-epoch decays (applyEpochDecay `count` times). Stops early once both decayed
 * values are 0, which further decays leave 0: exact however long an agent was idle.
 */
export function decayEpochs(state: ReputationState, count: bigint): ReputationState {
  let s = state;
  for (let i = 0n; i < count; i++) {
    if (s.reliabilityScore === 0n && s.cooperationIndex === 0n) break;
    s = applyEpochDecay(s);
  }
  return s;
}

/**
 * The decays {@link foldBatches} applies after a folded batch at `lastBatchEpoch` through the end
 * of `toEpoch` when no batch is folded in between: one at the end of every epoch that closes
 * DECAY_IDLE_EPOCHS or more epochs without a batch.
 */
export function decayAfterBatch(state: ReputationState, lastBatchEpoch: bigint, toEpoch: bigint): ReputationState {
  const count = toEpoch - lastBatchEpoch - BigInt(DECAY_IDLE_EPOCHS) + 1n;
  return count > 0n ? decayEpochs(state, count) : state;
}

/**
 * {@link foldBatches} one batch at a time: the state after the batch of `epoch`, given the state
 * after the agent's previous folded batch (at `previousEpoch`; null: none, the empty state) and
 * this batch's feedback events already in §7 order with its dispute count. Folding an agent's
 * batches through this in epoch order gives foldBatches' state after each of them.
 */
export function foldNextBatch(p: {
  state: ReputationState;
  previousEpoch: bigint | null;
  epoch: bigint;
  events: readonly FeedbackInput[];
  disputes: bigint;
}): ReputationState {
  if (p.previousEpoch !== null && p.epoch <= p.previousEpoch)
    throw new RangeError('epoch must come after previousEpoch');
  let state = p.previousEpoch === null ? { ...p.state } : decayAfterBatch(p.state, p.previousEpoch, p.epoch - 1n);
  for (const ev of p.events) state = foldOne(state, ev, false);
  return { ...state, totalDisputes: state.totalDisputes + p.disputes };
}

/** A batch's fold input: its feedback events in §7 order as (score, outcome, role), and its disputes. */
export function batchFoldInput(b: Pick<BehaviorBatch, 'feedbackEvents' | 'disputes'>): {
  events: FeedbackInput[];
  disputes: bigint;
} {
  return {
    events: [...b.feedbackEvents]
      .sort(compareFeedbackEvents)
      .map((e) => ({ score: e.score, outcome: e.outcome, role: e.role })),
    disputes: b.disputes,
  };
}
