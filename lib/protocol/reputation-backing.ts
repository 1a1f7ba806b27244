/**
 * How much of an agent's gossip reliability comes from FEEDBACK of unbacked senders (identities
 * with no stake and no deal with it; the store decides which, lib/store/reputation/feedback-backing.ts). The
 * gossip fold truncates at each step, so a score cannot be split into parts exactly; what is
 * exact is the fold without them: the same feedback in the same order, minus the unbacked ones.
 * The difference is what they moved the score by.
 */
import { applyFeedback, emptyReputation, type FeedbackInput } from './reputation';

export interface BackingSummary {
  feedback: number;
  unbacked: number;
  /** Reliability (fixed point, ONE = 1,000,000) folding every FEEDBACK. */
  reliability: bigint;
  /** The same fold without the unbacked senders' FEEDBACK. */
  reliabilityWithout: bigint;
}

/** `rows` in fold order (timestamp, envelope id), each flagged unbacked or not. */
export function backingSummary(rows: ReadonlyArray<FeedbackInput & { unbacked: boolean }>): BackingSummary {
  let all = emptyReputation();
  let backed = emptyReputation();
  let unbacked = 0;
  for (const r of rows) {
    all = applyFeedback(all, r);
    if (r.unbacked) unbacked++;
    else backed = applyFeedback(backed, r);
  }
  return {
    feedback: rows.length,
    unbacked,
    reliability: all.reliabilityScore,
    reliabilityWithout: backed.reliabilityScore,
  };
}

/** The unbacked share of FEEDBACK as a whole percent (0 with none), rounded half up. */
export function unbackedPercent(feedback: number, unbacked: number): number {
  if (!(feedback > 0)) return 0;
  return Math.floor((unbacked * 100) / feedback + 0.5);
}
