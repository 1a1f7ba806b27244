/**
 * The challenge conditions, from the chain's challenges updated in the last day, for the
 * challenged agent and the challenger alike: `challenged` (pending) and `challenge_resolved`
 * (resolved after the agent was watched).
 */
import { toHex } from '../../protocol/hex';
import type { Status } from '../tick-write';
import { watchers } from '../watch-set';
import { type ConditionInput, status } from './input';

export interface ChallengeRow {
  address: string;
  agent: Uint8Array;
  challenger: Uint8Array;
  epoch: bigint;
  status: string;
  updatedAt: Date;
}

type Role = 'target' | 'challenger';

export function challenged(c: ChallengeRow, a: string, role: Role, x: ConditionInput): Status[] {
  const pending = c.status === 'pending';
  return [...watchers(x.watch, 'challenged', a)].map(({ l }) =>
    status(l.id, a, 'challenged', c.address, pending, () =>
      pending
        ? role === 'target'
          ? `${x.name(a)}'s batch of epoch ${c.epoch} is challenged (challenge ${c.address})`
          : `${x.name(a)} challenged the batch of epoch ${c.epoch}` +
            ` of ${x.name(toHex(c.agent))} (challenge ${c.address})`
        : `challenge ${c.address} resolved: ${c.status}`,
    ),
  );
}

export function challengeResolved(c: ChallengeRow, a: string, role: Role, x: ConditionInput): Status[] {
  const out: Status[] = [];
  for (const { l, addedAt } of watchers(x.watch, 'challenge_resolved', a)) {
    if (c.status === 'pending' || c.updatedAt.getTime() < addedAt) continue;
    out.push(
      status(
        l.id,
        a,
        'challenge_resolved',
        c.address,
        true,
        () =>
          `challenge ${c.address} of the batch of epoch ${c.epoch} of ${x.name(toHex(c.agent))} ` +
          `resolved: ${c.status}${role === 'challenger' ? ` (${x.name(a)} was the challenger)` : ''}`,
      ),
    );
  }
  return out;
}

/** Both conditions over the tick's challenge rows, the target's then the challenger's. */
export function challengeConditions(challenges: readonly ChallengeRow[], x: ConditionInput): Status[] {
  const out: Status[] = [];
  for (const c of challenges) {
    const roles: Array<[string, Role]> = [
      [toHex(c.agent), 'target'],
      [toHex(c.challenger), 'challenger'],
    ];
    for (const [a, role] of roles) out.push(...challenged(c, a, role, x), ...challengeResolved(c, a, role, x));
  }
  return out;
}
