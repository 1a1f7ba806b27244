/**
 * The economy series checked against the chain: for each agent, the last point of the series the
 * agent page and GET /api/agents/{id}/economy show (readEconomy) against its stake and lease
 * accounts read now with getAccountInfo and decoded with lib/chain's codecs. Empty when they
 * agree; the demo's consistency check and the series' own test call it.
 */
import { type Connection, PublicKey } from '../chain';
import { lease, stakeLock } from '../chain/programs';
import { type EconomyStore, readEconomy } from './economy';
import { STAKE_STATUS_NAMES } from './json';

export interface EconomyMismatch {
  /** The agent (base58). */
  agent: string;
  figure: 'stake' | 'stake status' | 'lease paid through' | 'lease active';
  /** What the series' last point says (null: no point, or no lease in the series). */
  series: string | null;
  /** What the account reads now (null: no account). */
  chain: string | null;
}

/** An agent id as a PublicKey, 32 bytes, 64 hex characters or a base58 address. */
export type AgentIdInput = PublicKey | Uint8Array | string;

const toKey = (a: AgentIdInput): PublicKey =>
  typeof a === 'string' && /^[0-9a-f]{64}$/i.test(a) ? new PublicKey(Buffer.from(a, 'hex')) : new PublicKey(a);

/**
 * Compares each agent's series (read from `o.store` as the pages do) with its accounts on
 * `o.connection`. `nowMs` places the series' current epoch (default the wall clock, which the
 * embedded chain's clock follows). Stake programs other than the default ones: pass `programIds`.
 */
export async function checkEconomyAgainstChain(
  o: {
    store: EconomyStore;
    connection: Connection;
    epochSeconds: bigint;
    nowMs?: number;
    programIds?: { stakeLock?: PublicKey; lease?: PublicKey };
  },
  agentIds: readonly AgentIdInput[],
): Promise<EconomyMismatch[]> {
  const out: EconomyMismatch[] = [];
  for (const id of agentIds) {
    const key = toKey(id);
    const agent = key.toBase58();
    const view = await readEconomy(o.store, { bytes: key.toBytes(), base58: agent }, o.epochSeconds, o.nowMs);
    const last = view.points.at(-1) ?? null;
    const [sInfo, lInfo] = await Promise.all([
      o.connection.getAccountInfo(stakeLock.findStakePda(key, o.programIds?.stakeLock)[0], 'confirmed'),
      o.connection.getAccountInfo(lease.findLeasePda(key, o.programIds?.lease)[0], 'confirmed'),
    ]);
    const s = sInfo ? stakeLock.decodeStake(sInfo.data) : null;
    const l = lInfo ? lease.decodeLease(lInfo.data) : null;
    const add = (figure: EconomyMismatch['figure'], series: string | null, chain: string | null) => {
      if (series !== chain) out.push({ agent, figure, series, chain });
    };
    // No stake account reads as 0 staked (what the chart draws for an agent that never staked).
    add('stake', last?.stake ?? null, s ? s.amount.toString() : last ? '0' : null);
    add(
      'stake status',
      last?.stakeStatus ?? null,
      s ? (STAKE_STATUS_NAMES[s.status] ?? String(s.status)) : last ? 'none' : null,
    );
    add(
      'lease paid through',
      last?.paidThroughEpoch != null ? String(last.paidThroughEpoch) : null,
      l ? l.paidThroughEpoch.toString() : null,
    );
    add('lease active', last?.leaseActive != null ? String(last.leaseActive) : null, l ? String(l.status !== 2) : null);
  }
  return out;
}
