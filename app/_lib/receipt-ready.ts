/** Whether a conversation has what a Handshake receipt needs (lib/protocol/receipt.ts). */
import { MsgType } from '../../lib/protocol/types';

/** null when ready, else what is missing, in words: an ACCEPT and a VERDICT or FEEDBACK. */
export function receiptReadiness(types: readonly number[]): string | null {
  if (!types.includes(MsgType.ACCEPT)) return 'the conversation has no ACCEPT (no deal to give a receipt for)';
  if (!types.includes(MsgType.VERDICT) && !types.includes(MsgType.FEEDBACK))
    return 'the conversation has no VERDICT or FEEDBACK yet';
  return null;
}
