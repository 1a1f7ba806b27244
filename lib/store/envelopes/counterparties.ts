/**
 * An agent's negotiating counterparties: the other negotiators (sender and recipient of a
 * PROPOSE, COUNTER, ACCEPT or REJECT) of each conversation it negotiated in, with how many of
 * those conversations became deals (the conversation's outcome is agreed or disputed,
 * lib/store/envelopes/derive.ts). Notaries and bidders that only touched the conversation are not
 * counterparties. The ingest statement keeps `conversation.negotiators`, so the read is the
 * agent's conversations (the participants GIN index) and never its envelopes.
 */
import type { Queryable } from '../engine/db';

export interface CounterpartyRow {
  agent: Uint8Array;
  conversations: number;
  deals: number;
}

const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

export async function counterpartiesOf(q: Queryable, agent: Uint8Array, limit = 100): Promise<CounterpartyRow[]> {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  // negotiators ⊆ participants: the participants test only lets the GIN index find the rows.
  // An agent that negotiated only with itself is its own counterparty.
  const rows = await q.query<Record<string, unknown>>(
    `SELECT o.other, count(*)::int AS conversations,
      count(*) FILTER (WHERE c.outcome IN ('agreed', 'disputed'))::int AS deals
    FROM conversation c CROSS JOIN LATERAL unnest(c.negotiators) AS o(other)
    WHERE c.participants @> ARRAY[$1::bytea] AND c.negotiators @> ARRAY[$1::bytea]
      AND (o.other <> $1::bytea OR cardinality(c.negotiators) = 1)
    GROUP BY o.other ORDER BY deals DESC, conversations DESC, o.other LIMIT $2`,
    [agent, limit],
  );
  return rows.map((r) => ({ agent: u8(r.other), conversations: Number(r.conversations), deals: Number(r.deals) }));
}
