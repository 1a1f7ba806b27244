'use client';
/**
 * The overview's counters: envelopes, agents, links and drops, and the chain's batches, challenges, stakes and leases.
 */
import Link from 'next/link';
import type { OverviewSnapshot } from '../../lib/wire';
import { count, shortHex } from '../format';
import type { OverviewState } from '../live-state';
import { AgentName } from '../names/AgentName';
import { AccountLink } from '../site';

export interface OverviewTotals {
  envelopes: number;
  drops: number;
  online: OverviewState['agents'];
}

export function Totals({
  state,
  totals,
  replaying,
}: {
  state: OverviewState;
  totals: OverviewTotals;
  replaying: boolean;
}) {
  return (
    <section className="stat-row" aria-label="Totals">
      {replaying ? (
        <>
          <Stat label="Envelopes replayed" value={count(state.liveCount)} testId="total-envelopes" />
          <Stat label="Agents seen in the replay" value={count(state.agents.length)} testId="agents-online" />
          <Stat label="Conversation links" value={count(state.graph.links.length)} />
          <Stat label="Drops: not replayed (unknown per envelope time)" value="—" />
        </>
      ) : (
        <>
          <Stat label="Envelopes stored" value={count(totals.envelopes)} testId="total-envelopes" />
          <Stat label="Live since page load" value={count(state.liveCount)} testId="live-count" />
          <Stat
            label="Agents online"
            value={`${count(totals.online.length)} / ${count(state.agents.length)}`}
            testId="agents-online"
          />
          <Stat label="Conversation links" value={count(state.graph.links.length)} />
          <Stat
            label="Drops"
            value={count(totals.drops)}
            tone={totals.drops > 0 ? 'warn' : undefined}
            testId="total-drops"
          />
        </>
      )}
    </section>
  );
}

/** The chain section: batches, challenges, stakes and leases, live from the indexer's events. */
export function ChainSection({ c }: { c: NonNullable<OverviewSnapshot['chain']> }) {
  return (
    <section className="card" style={{ marginBottom: 16 }} data-testid="chain-section">
      <h2>Chain</h2>
      <div className="stat-row" aria-label="Chain totals">
        <Stat label="Batches submitted" value={count(c.batches)} testId="chain-batches" />
        <Stat label="Batches verified" value={count(c.verifiedBatches)} testId="chain-verified" />
        <Stat
          label="Challenges (resolved)"
          value={`${count(c.challenges)} (${count(c.resolvedChallenges)})`}
          testId="chain-challenges"
        />
        <Stat label="Stakes locked" value={count(c.lockedStakes)} />
        <Stat label="Leases active" value={count(c.activeLeases)} />
      </div>
      <p className="small muted" data-testid="chain-last-challenge">
        {c.lastChallenge ? (
          <>
            Last challenge: <AccountLink address={c.lastChallenge.address} /> against{' '}
            {/^[0-9a-f]{64}$/.test(c.lastChallenge.agent) ? (
              <AgentName id={c.lastChallenge.agent} copy={false} />
            ) : (
              <span className="mono">{shortHex(c.lastChallenge.agent)}</span>
            )}{' '}
            over its batch of epoch {c.lastChallenge.epoch}: <strong>{c.lastChallenge.status}</strong> ·{' '}
            <Link href="/challenges">all challenges</Link>
          </>
        ) : (
          'No challenge yet.'
        )}
      </p>
    </section>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: string; tone?: 'warn'; testId?: string }) {
  return (
    <div className={`stat ${tone ?? ''}`}>
      <div className="stat-value mono" data-testid={testId}>
        {value}
      </div>
      <div className="stat-label">{label}</div>
    </div>
  );
}
