/**
 * An agent's stake and lease over epochs (lib/wire EconomyPoint) from its indexed chain events.
 * Lease events carry their epoch; stake events only a slot, so they are placed in the epoch of
 * the last lease event before them (agents pay their lease each epoch; the first stake lock
 * comes before any lease and goes to the first lease's epoch).
 */
import 'server-only';
import type { EconomyPoint } from '../../lib/wire';
import { base58 } from '../../components/format';
import type { Services } from './services';

const NAMES = ['StakeLocked', 'StakeSlashed', 'StakeClaimed', 'LeasePaid', 'LeaseTicked'] as const;
const num = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN);

export function economyPoints(events: readonly { name: string; data: Record<string, unknown> }[]): EconomyPoint[] {
  const byEpoch = new Map<number, EconomyPoint>();
  let stake = 0;
  let paid: number | null = null;
  let epoch: number | null = null;
  const pending: string[] = [];
  const at = (e: number) => {
    let p = byEpoch.get(e);
    if (!p) { p = { epoch: e, stake, paidThroughEpoch: paid, events: [] }; byEpoch.set(e, p); }
    return p;
  };
  for (const ev of events) {
    const d = ev.data;
    if (ev.name === 'LeasePaid' || ev.name === 'LeaseTicked') {
      epoch = num(d.epoch);
      paid = Number.isFinite(num(d.paidThroughEpoch)) ? num(d.paidThroughEpoch) : paid;
      const p = at(epoch);
      p.events.push(...pending.splice(0), ev.name === 'LeasePaid' ? 'lease paid' : num(d.status) === 2 ? 'deactivated' : 'lease ticked');
    } else {
      if (ev.name === 'StakeLocked') stake += num(d.amount);
      else if (ev.name === 'StakeSlashed') stake -= num(d.amount);
      else stake = 0;
      const what = ev.name === 'StakeLocked' ? 'stake locked' : ev.name === 'StakeSlashed' ? 'slashed' : 'stake claimed';
      if (epoch === null) pending.push(what);
      else at(epoch).events.push(what);
    }
    if (epoch !== null) { const p = at(epoch); p.stake = stake; p.paidThroughEpoch = paid; }
  }
  return [...byEpoch.values()].sort((a, b) => a.epoch - b.epoch);
}

export async function loadEconomyHistory(o: Services, agentHex: string): Promise<EconomyPoint[]> {
  if (!o.chain) return [];
  return economyPoints(await o.observatory.store.agentChainEvents(base58(agentHex), NAMES));
}
