/**
 * Pure updates of the overview's chain section: the server's snapshot plus the chain live
 * events of the indexer (`batch_submitted`, `challenge_submitted`, `challenge_resolved`,
 * `stake_locked`, `stake_slashed`, `lease_paid`, `agent_deactivated`; lib/wire/chain-events.ts).
 * No React, unit-tested on its own.
 */
import type { ChainOverviewView, LiveEvent } from '../lib/wire';

/** An empty chain section (before the first snapshot has one). */
export function emptyChainOverview(): ChainOverviewView {
  return {
    batches: 0,
    verifiedBatches: 0,
    challenges: 0,
    resolvedChallenges: 0,
    lockedStakes: 0,
    activeLeases: 0,
    lastChallenge: null,
  };
}

/** Applies one chain live event; other events return `c` unchanged. */
export function applyChainEvent(c: ChainOverviewView, event: LiveEvent): ChainOverviewView {
  switch (event?.type) {
    case 'batch_submitted':
      return {
        ...c,
        batches: c.batches + 1,
        verifiedBatches: c.verifiedBatches + (event.data.status === 'verified' ? 1 : 0),
      };
    case 'challenge_submitted': {
      const d = event.data;
      return {
        ...c,
        challenges: c.challenges + 1,
        lastChallenge: { address: d.challenge, agent: d.agentHex, epoch: d.epoch, status: 'pending' },
      };
    }
    case 'challenge_resolved': {
      const d = event.data;
      return {
        ...c,
        resolvedChallenges: c.resolvedChallenges + 1,
        lastChallenge: { address: d.challenge, agent: d.agentHex, epoch: d.epoch, status: d.statusName },
      };
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
