/**
 * Agent page sections: counterparties with their share of the agent's deals, and the
 * authoritative reputation (docs/protocol.md §7) as folded from its verified batches (listed
 * once, in the chain section, each verifiable in the browser at /batches/{agent}/{epoch}).
 */
import type { AuthoritativeSummary } from '../../lib/wire';
import { AgentLink } from '../EnvelopeFeed';
import { withDealShares } from './counterparties';

const fixed = (v: string) => {
  const n = Number(v) / 1_000_000;
  return Number.isFinite(n) ? n.toFixed(3) : v;
};

export function Counterparties({ rows: raw }: { rows: { agent: string; conversations: number; deals: number }[] }) {
  const rows = withDealShares(raw);
  if (rows.length === 0) return <p className="muted empty">No counterparties yet.</p>;
  return (
    <>
      <table className="list" data-testid="counterparties">
        <thead>
          <tr>
            <th>Counterparty</th>
            <th className="num">Conversations</th>
            <th className="num">Deals</th>
            <th>Share of its deals</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent}>
              <td>
                <AgentLink id={r.agent} />
              </td>
              <td className="num mono">{r.conversations}</td>
              <td className="num mono">{r.deals}</td>
              <td>
                <span className="share-bar">
                  <i style={{ width: `${Math.round(r.dealShare * 100)}%` }} />
                </span>{' '}
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

/**
 * The authoritative fold (docs/protocol.md §7) now, from the newest stored fold; its batches are listed once, in the
 * chain section.
 */
export function AuthoritativeReputation({ a }: { a: AuthoritativeSummary }) {
  if (!a.known || !a.state)
    return (
      <p className="muted" data-testid="authoritative-reputation">
        Unknown: {a.reason}
      </p>
    );
  if (a.toEpoch === null)
    return (
      <p className="muted empty" data-testid="authoritative-reputation">
        No batch submitted yet: nothing to fold.
      </p>
    );
  const s = a.state;
  return (
    <div data-testid="authoritative-reputation">
      <p className="small">
        Reliability <b className="mono">{fixed(s.reliabilityScore)}</b> · cooperation{' '}
        <b className="mono">{fixed(s.cooperationIndex)}</b> · notary accuracy{' '}
        <b className="mono">{fixed(s.notaryAccuracy)}</b> · {s.totalTasks} tasks · {s.totalDisputes} disputes
      </p>
      <p className="muted small">
        Folded from {a.folded} verified batch{a.folded === 1 ? '' : 'es'} (epochs {a.fromEpoch}–{a.toEpoch}); each is
        listed under <a href="#batches">Batches</a> with a link to verify it in your browser.
      </p>
    </div>
  );
}
