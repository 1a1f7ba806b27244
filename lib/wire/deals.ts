/**
 * The conversation list's deal columns (built on the server by app/_lib/deals.ts, shown by
 * components/ConversationList.tsx).
 */
import type { ConversationOutcome } from '../protocol/conversation-state';

/** The deal columns of one conversation (built by app/_lib/deals.ts). */
export interface DealColumns {
  buyer: string | null;
  seller: string | null;
  /** The advertised service name, or null with `serviceHash` when no party advertised it. */
  service: string | null;
  serviceHash: string | null;
  rounds: number;
  lastPrice: string | null;
  token: { decimals: number | null; symbol: string | null };
  outcome: ConversationOutcome;
  onChain: boolean;
  /** Gossip against chain differences (0 when not on chain). */
  differences: number;
  /**
   * The negotiating parties (the senders of its offers and answers), each once: not notaries, bidders or broadcast
   * listeners.
   */
  parties?: string[];
}
