/**
 * Pure updates of the overview's chain section (issue 5; 0x01 spec §9 chain events): the
 * server's snapshot plus the chain LiveEvents of the indexer (`batch_submitted`,
 * `challenge_submitted`, `challenge_resolved`, `stake_locked`, `stake_slashed`, `lease_paid`,
 * `agent_deactivated`). No React, unit-tested on its own.
 */
import type { LiveEvent } from '../lib/observer/types';
import type { ChainOverviewView } from './types';

/** The chain event types of §9 the indexer publishes. */
export const CHAIN_EVENT_TYPES: ReadonlySet<string> = new Set([
  'agent_deactivated', 'lease_paid', 'stake_locked', 'stake_slashed', 'batch_submitted', 'challenge_submitted', 'challenge_resolved',
]);

const s = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** An empty chain section (before the first snapshot has one). */
export function emptyChainOverview(): ChainOverviewView {
  return { batches: 0, verifiedBatches: 0, challenges: 0, resolvedChallenges: 0, lockedStakes: 0, activeLeases: 0, lastChallenge: null };
}

/** Applies one chain LiveEvent; other events return `c` unchanged. */
export function applyChainEvent(c: ChainOverviewView, event: LiveEvent): ChainOverviewView {
  const d = (event?.data ?? {}) as Record<string, unknown>;
  const agent = s(d.agentHex) ?? s(d.agent) ?? '';
  switch (event?.type) {
    case 'batch_submitted':
      return { ...c, batches: c.batches + 1, verifiedBatches: c.verifiedBatches + (d.status === 'verified' ? 1 : 0) };
    case 'challenge_submitted':
      return { ...c, challenges: c.challenges + 1, lastChallenge: { address: s(d.challenge) ?? '', agent, epoch: String(d.epoch ?? ''), status: 'pending' } };
    case 'challenge_resolved': {
      const address = s(d.challenge) ?? '';
      const status = s(d.statusName) ?? 'resolved';
      return { ...c, resolvedChallenges: c.resolvedChallenges + 1, lastChallenge: { address, agent, epoch: String(d.epoch ?? c.lastChallenge?.epoch ?? ''), status } };
    }
    case 'stake_locked':
      return { ...c, lockedStakes: c.lockedStakes + 1 };
    case 'stake_slashed':
      return { ...c, lockedStakes: Math.max(0, c.lockedStakes - 1) };
    case 'agent_deactivated':
      return { ...c, activeLeases: Math.max(0, c.activeLeases - 1) };
    default:
      return c;
  }
}
