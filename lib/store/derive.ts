/**
 * Conversation stages (spec §6 flows) by msg type (docs/protocol.md §2 msg_type). The ingest SQL
 * (ingest.ts) derives a conversation's state and outcome from the highest rank it has reached,
 * with CASE expressions generated from this table.
 */
import { MsgType } from '../protocol/types';

/** Conversation stage by msg type: later stages win regardless of arrival order. */
const STAGES: Record<number, readonly [string, number]> = {
  [MsgType.DISCOVER]: ['discovery', 0],
  [MsgType.PROPOSE]: ['negotiating', 1],
  [MsgType.COUNTER]: ['negotiating', 1],
  [MsgType.REJECT]: ['rejected', 2],
  [MsgType.ACCEPT]: ['accepted', 3],
  [MsgType.DELIVER]: ['delivered', 4],
  [MsgType.NOTARIZE_BID]: ['notarizing', 5],
  [MsgType.NOTARIZE_ASSIGN]: ['notarizing', 5],
  [MsgType.VERDICT]: ['verdict', 6],
  [MsgType.FEEDBACK]: ['completed', 7],
  [MsgType.DISPUTE]: ['disputed', 8],
};

/** Stage name and rank of a msg type; null for ADVERTISE/BEACON (no conversation). */
export function conversationStage(msgType: number): { state: string; rank: number } | null {
  const s = STAGES[msgType];
  return s ? { state: s[0], rank: s[1] } : null;
}

/** Outcome implied by the furthest stage reached (null while still open). */
export function outcomeOf(rank: number): string | null {
  if (rank >= 8) return 'disputed';
  if (rank >= 3) return 'agreed';
  if (rank === 2) return 'rejected';
  return null;
}
