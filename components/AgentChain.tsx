'use client';
/**
 * The agent page's chain section: stake, lease, BehaviorBatches (with their
 * verification) and challenges. Server-rendered from a snapshot, then live: a chain event about
 * this agent on `/api/stream` reloads its batches and challenges from the REST endpoints and
 * updates stake and lease from the event itself.
 */
import { useCallback, useState } from 'react';
import { isChainEvent, type AgentChainView, type BatchList, type ChallengeList, type LiveEvent } from '../lib/wire';
import { formatTokenAmount, } from './format';
import { useLiveStream } from './useLiveStream';
import { AccountLink, TxLink, useSite } from './site';
import { EpochTime } from './time/Time';
import { BatchChallenges } from './wallet/BatchChallenges';
import { ChallengeRows } from './wallet/ChallengeRows';

const usdc = (base: string) => formatTokenAmount(BigInt(base), { decimals: 6, minFractionDigits: 2 });

export function AgentChain({ agent, initial }: { agent: string; initial: AgentChainView }) {
  const [c, setC] = useState(initial);
  const { epochSeconds } = useSite();
  const reload = useCallback(async () => {
    try {
      const [b, ch] = await Promise.all([
        fetch(`/api/batches?agent=${agent}&limit=50`, { cache: 'no-store' }).then((r) => (r.ok ? (r.json() as Promise<BatchList>) : null)),
        fetch(`/api/challenges?agent=${agent}`, { cache: 'no-store' }).then((r) => (r.ok ? (r.json() as Promise<ChallengeList>) : null)),
      ]);
      setC((x) => ({ ...x, batches: b?.batches ?? x.batches, challenges: ch?.challenges ?? x.challenges }));
    } catch {
      // offline: the next event retries
    }
  }, [agent]);
  const onEvent = useCallback((e: LiveEvent) => {
    if (!isChainEvent(e) || e.data.agentHex !== agent) return;
    const slot = String(e.data.slot);
    if (e.type === 'stake_locked') setC((x) => ({ ...x, stake: { amount: e.data.amount, status: 'locked', slot } }));
    else if (e.type === 'stake_slashed') setC((x) => ({ ...x, stake: { amount: '0', status: 'slashed', slot } }));
    else if (e.type === 'lease_paid') setC((x) => ({ ...x, lease: { paidThroughEpoch: e.data.paidThroughEpoch, lastPaidEpoch: e.data.epoch, missedEpochs: 0, active: true } }));
    else if (e.type === 'agent_deactivated') setC((x) => (x.lease ? { ...x, lease: { ...x.lease, active: false } } : x));
    else void reload();
  }, [agent, reload]);
  useLiveStream({ onEvent, onResync: reload });

  return (
    <section className="card" style={{ marginBottom: 16 }} data-testid="agent-chain">
      <h2>On chain</h2>
      <dl className="kv">
        <dt>Stake</dt>
        <dd className="mono" data-testid="agent-stake">{c.stake ? `${usdc(c.stake.amount)} USDC, ${c.stake.status}` : 'none'}</dd>
        <dt>Lease</dt>
        <dd className="mono" data-testid="agent-lease">
          {c.lease ? `paid through epoch ${c.lease.paidThroughEpoch}${c.lease.active ? '' : ', deactivated'}${c.lease.missedEpochs ? `, ${c.lease.missedEpochs} missed` : ''}` : 'none'}
        </dd>
      </dl>
      <h3 className="small">Batches</h3>
      {c.batches.length === 0 ? <p className="muted empty">No batch submitted yet.</p> : (
        <table className="list" data-testid="agent-batches">
          <thead><tr><th>Epoch</th><th>Status</th><th>Transaction</th><th>Bids</th><th /></tr></thead>
          <tbody>
            {c.batches.map((b) => (
              <tr key={b.epoch} id={`batch-${b.epoch}`}>
                <td className="small"><EpochTime epoch={b.epoch} epochSeconds={epochSeconds} label={false} /></td>
                <td>{b.status}</td>
                <td><TxLink signature={b.signature} /></td>
                <td className="mono">{String((b.data as { bidCount?: unknown } | null)?.bidCount ?? '')}</td>
                <td><a href={`/batches/${b.agentAddress}/${b.epoch}`} className="small">verify</a></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {c.batches.map((b) => <BatchChallenges key={b.epoch} agent={agent} batch={b} />)}
      <h3 className="small" id="challenges">Challenges</h3>
      {c.challenges.length === 0 ? <p className="muted empty">No challenge against this agent.</p> : (
        <table className="list" data-testid="agent-challenges">
          <thead><tr><th>Epoch</th><th>Status</th><th>Challenger</th><th>Transitions</th></tr></thead>
          <tbody>
            {c.challenges.map((x) => (
              <tr key={x.address}>
                <td className="small"><EpochTime epoch={x.epoch} epochSeconds={epochSeconds} label={false} /></td>
                <td>{x.status}</td>
                <td><AccountLink address={x.challenger} /></td>
                <td className="small">{x.transitions.map((t, i) => <span key={i}>{i > 0 ? ' → ' : ''}{t.status} <TxLink signature={t.signature} head={5} /></span>)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ChallengeRows challenges={c.challenges} agentHex={agent} pendingOnly />
    </section>
  );
}
