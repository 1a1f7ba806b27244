/** An agent's counterparties with their part in its deals (rows from lib/store counterparties.ts, hex ids). */
export interface Counterparty {
  agent: string;
  conversations: number;
  deals: number;
  dealShare: number;
}

/** Each counterparty's share of the agent's deals; the shares add up to 100% when it has deals. */
export function withDealShares(
  rows: readonly { agent: string; conversations: number; deals: number }[],
): Counterparty[] {
  const total = rows.reduce((a, r) => a + r.deals, 0);
  return rows.map((r) => ({ ...r, dealShare: total > 0 ? r.deals / total : 0 }));
}
