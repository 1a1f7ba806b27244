/**
 * An agent's negotiating counterparties: the other side of its PROPOSE/COUNTER/ACCEPT/REJECT
 * envelopes, per conversation, with how many of those conversations became deals (the
 * conversation's outcome is agreed or disputed, lib/store/derive.ts). Notaries and bidders that
 * only touched the conversation are not counterparties.
 */
import type { Queryable } from './db';

export interface CounterpartyRow { agent: Uint8Array; conversations: number; deals: number }

const u8 = (v: unknown) => (v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0));

export async function counterpartiesOf(q: Queryable, agent: Uint8Array, limit = 100): Promise<CounterpartyRow[]> {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  const rows = await q.query<Record<string, unknown>>(`SELECT t.other, count(*)::int AS conversations,
      count(*) FILTER (WHERE c.outcome IN ('agreed', 'disputed'))::int AS deals
    FROM (SELECT DISTINCT conversation_id, CASE WHEN sender = $1 THEN recipient ELSE sender END AS other
          FROM envelope WHERE msg_type IN (3, 4, 5, 6) AND (sender = $1 OR recipient = $1)) t
    JOIN conversation c ON c.id = t.conversation_id
    GROUP BY t.other ORDER BY deals DESC, conversations DESC, t.other LIMIT $2`, [agent, limit]);
  return rows.map((r) => ({ agent: u8(r.other), conversations: Number(r.conversations), deals: Number(r.deals) }));
}
