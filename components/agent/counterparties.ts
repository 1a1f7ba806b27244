/** An agent's counterparties and their share of its conversations and deals, from conversation summaries. */
import type { ConversationSummaryView } from '../../lib/wire';

export interface Counterparty { agent: string; conversations: number; deals: number; dealShare: number }

/** A conversation counts as a deal once it reached ACCEPT (states from lib/store/derive.ts). */
const DEAL = /accepted|delivered|notarizing|verdict|completed|disputed|agreed/;

export function counterparties(conversations: readonly ConversationSummaryView[], self: string): Counterparty[] {
  const by = new Map<string, Counterparty>();
  let deals = 0;
  for (const c of conversations) {
    const deal = DEAL.test(c.state ?? '');
    if (deal) deals++;
    for (const p of c.participants) {
      if (p === self) continue;
      const row = by.get(p) ?? { agent: p, conversations: 0, deals: 0, dealShare: 0 };
      row.conversations++;
      if (deal) row.deals++;
      by.set(p, row);
    }
  }
  for (const r of by.values()) r.dealShare = deals > 0 ? r.deals / deals : 0;
  return [...by.values()].sort((a, b) => b.deals - a.deals || b.conversations - a.conversations || (a.agent < b.agent ? -1 : 1));
}
