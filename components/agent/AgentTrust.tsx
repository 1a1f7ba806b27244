/**
 * Agent page sections: counterparties with their share of the agent's deals, and the
 * authoritative reputation (docs/protocol.md §7) with the verified batches it was folded from,
 * each verifiable in the browser (/batches/{agent}/{epoch}).
 */
import Link from 'next/link';
import type { ReputationJson } from '../../lib/wire';
import { AgentLink } from '../EnvelopeFeed';
import { withDealShares } from './counterparties';

const fixed = (v: string) => { const n = Number(v) / 1_000_000; return Number.isFinite(n) ? n.toFixed(3) : v; };

export function Counterparties({ rows: raw }: { rows: { agent: string; conversations: number; deals: number }[] }) {
  const rows = withDealShares(raw);
  if (rows.length === 0) return <p className="muted empty">No counterparties yet.</p>;
  return (
    <>
    <table className="list" data-testid="counterparties">
      <thead><tr><th>Counterparty</th><th className="num">Conversations</th><th className="num">Deals</th><th>Share of its deals</th></tr></thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.agent}>
            <td><AgentLink id={r.agent} /></td>
            <td className="num mono">{r.conversations}</td>
            <td className="num mono">{r.deals}</td>
            <td>
              <span className="share-bar"><i style={{ width: `${Math.round(r.dealShare * 100)}%` }} /></span>{' '}
              <span className="mono small">{(r.dealShare * 100).toFixed(0)}%</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    <p className="muted small">The other side of its offers; a deal is a conversation that reached ACCEPT.</p>
    </>
  );
}

export function AuthoritativeReputation({ rep }: { rep: ReputationJson }) {
  const a = rep.authoritative;
  const folded = rep.batches.filter((b) => b.folded);
  return (
    <div data-testid="authoritative-reputation">
      <p className="small">
        Reliability <b className="mono">{fixed(a.reliabilityScore)}</b> · cooperation <b className="mono">{fixed(a.cooperationIndex)}</b> · notary accuracy{' '}
        <b className="mono">{fixed(a.notaryAccuracy)}</b> · {a.totalTasks} tasks · {a.totalDisputes} disputes
      </p>
      <p className="muted small">
        Folded from {folded.length} verified batch{folded.length === 1 ? '' : 'es'}{a.toEpoch !== '-1' ? ` (epochs ${a.fromEpoch}–${a.toEpoch})` : ''}. Verify each in your browser:
      </p>
      <ul className="activity">
        {rep.batches.map((b) => (
          <li key={b.epoch} data-epoch={b.epoch}>
            epoch <span className="mono">{b.epoch}</span> · {b.status}{b.folded ? ' · folded' : ' · not folded'} ·{' '}
            <Link href={`/batches/${rep.agent}/${b.epoch}`} prefetch={false}>verify batch</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
