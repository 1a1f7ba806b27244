/**
 * One agent's stake, lease and challenge events from the chain index (`chain_event`, written by
 * lib/indexer) and its indexed stake and lease rows, for the agent's economy series
 * (lib/indexer/economy.ts). The events are the decoded program events with the agent as a base58
 * address in `data.agent`, which the store keeps in the `agent` column too: one agent's newest
 * events are read through (agent, slot), never by testing every event of those names.
 */
import type { Queryable } from '../engine/db';

export interface AgentChainEventRow {
  slot: bigint;
  blockTime: Date | null;
  name: string;
  data: Record<string, unknown>;
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * The newest `limit` (default 5,000) events named `names` about `agentBase58`, returned in chain
 * order (slot, signature, index). Newest, not oldest: a long-lived agent's chart ends now, and
 * its economy series infers the state before the window from the window's first event.
 */
export async function agentChainEvents(
  q: Queryable,
  agentBase58: string,
  names: readonly string[],
  limit = 5_000,
): Promise<AgentChainEventRow[]> {
  if (!BASE58.test(agentBase58)) throw new TypeError('agentBase58 must be a base58 address');
  const rows = await q.query<Record<string, unknown>>(
    `SELECT * FROM (
      SELECT slot::text AS slot, signature, index, block_time, name, data FROM chain_event
      WHERE agent = $2 AND name = ANY($1::text[]) ORDER BY slot DESC, signature DESC, index DESC LIMIT $3
    ) t ORDER BY slot::int8, signature, index`,
    [[...names], agentBase58, limit],
  );
  return rows.map((r) => ({
    slot: BigInt(String(r.slot)),
    blockTime: r.block_time ? new Date(r.block_time as string | Date) : null,
    name: String(r.name),
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
  }));
}

/** The indexed stake and lease rows of one agent (each null when the agent has none). */
export async function agentAccounts(
  q: Queryable,
  agentId: Uint8Array,
): Promise<{
  stake: { amount: bigint; status: string; slot: bigint } | null;
  lease: { paidThroughEpoch: bigint; active: boolean; slot: bigint } | null;
}> {
  const [s, l] = await Promise.all([
    q.query<Record<string, unknown>>(
      `SELECT amount::text AS amount, status, slot::text AS slot FROM stake WHERE agent_id = $1`,
      [agentId],
    ),
    q.query<Record<string, unknown>>(
      `SELECT paid_through_epoch::text AS p, active, slot::text AS slot FROM lease WHERE agent_id = $1`,
      [agentId],
    ),
  ]);
  return {
    stake: s[0]
      ? { amount: BigInt(String(s[0].amount)), status: String(s[0].status), slot: BigInt(String(s[0].slot)) }
      : null,
    lease: l[0]
      ? { paidThroughEpoch: BigInt(String(l[0].p)), active: Boolean(l[0].active), slot: BigInt(String(l[0].slot)) }
      : null,
  };
}
