/**
 * One agent's stake and lease events from the chain index (`chain_event`, written by
 * lib/indexer), for the agent page's stake-and-lease-over-epochs chart. The events are the
 * decoded program events with the agent as a base58 address in `data.agent`.
 */
import type { Queryable } from './db';

export interface AgentChainEventRow { slot: bigint; name: string; data: Record<string, unknown> }

/** Events named `names` about `agentBase58`, in chain order; at most `limit` (default 5,000). */
export async function agentChainEvents(q: Queryable, agentBase58: string, names: readonly string[], limit = 5_000): Promise<AgentChainEventRow[]> {
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(agentBase58)) throw new TypeError('agentBase58 must be a base58 address');
  const rows = await q.query<Record<string, unknown>>(`SELECT slot::text AS slot, name, data FROM chain_event
    WHERE name = ANY($1::text[]) AND data->>'agent' = $2 ORDER BY slot, signature, index LIMIT $3`, [[...names], agentBase58, limit]);
  return rows.map((r) => ({ slot: BigInt(String(r.slot)), name: String(r.name), data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown> }));
}
