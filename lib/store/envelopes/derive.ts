/**
 * What an envelope adds to its conversation's stored state: the bit of its type in
 * `conversation.types_seen`. The stage and outcome are the state machine of
 * lib/protocol/conversation-state.ts over that mask, in SQL generated from the same rules
 * (docs/protocol.md "Conversation state"), so the stored stage and the machine cannot differ.
 */
import { conversationStateSql, conversationTypeBit } from '../../protocol/conversation-state';

/** The type bit an envelope ORs into its conversation's `types_seen`; null for ADVERTISE/BEACON (no conversation). */
export function conversationBit(msgType: number): number | null {
  const b = conversationTypeBit(msgType);
  return b === 0 ? null : b;
}

/**
 * The stored `state` and `outcome` of a conversation whose types mask is the SQL expression
 * `mask`. An open conversation's outcome is stored as NULL (its filter is `outcome IS NULL`).
 */
export function storedStateSql(mask: string): { state: string; outcome: string } {
  const { stage, outcome } = conversationStateSql(mask);
  return { state: stage, outcome: `NULLIF(${outcome}, 'open')` };
}
