/**
 * Agent page sections: counterparties with their share of the agent's deals, and the
 * authoritative reputation (docs/protocol.md §7) as folded from its verified batches (listed
 * once, in the chain section, each verifiable in the browser at /batches/{agent}/{epoch}).
 */

import type { AuthoritativeSummary } from '../../lib/wire';
import { AgentLink } from '../EnvelopeFeed';
import { type Column, DataTable } from '../table/DataTable';
import { EpochTime } from '../time/Time';
import { withDealShares } from './counterparties';

const fixed = (v: string) => {
  const n = Number(v) / 1_000_000;
  return Number.isFinite(n) ? n.toFixed(3) : v;
};

type CounterpartyRow = ReturnType<typeof withDealShares>[number];

/** Who, and how much of its dealing, at every width; a phone shows each as a card. */
const COUNTERPARTY_COLUMNS: Column<CounterpartyRow>[] = [
  { label: 'Counterparty', priority: true, cell: (r) => <AgentLink id={r.agent} copy /> },
  { label: 'Conversations', className: 'num mono', cell: (r) => r.conversations },
  { label: 'Deals', className: 'num mono', cell: (r) => r.deals },
  {
    label: 'Share of its deals',
    priority: true,
    cell: (r) => (
      <>
        <span className="share-bar">
          <i style={{ width: `${Math.round(r.dealShare * 100)}%` }} />
        </span>{' '}
        <span className="mono small">{(r.dealShare * 100).toFixed(0)}%</span>
      </>
    ),
  },
];

export function Counterparties({ rows: raw }: { rows: { agent: string; conversations: number; deals: number }[] }) {
  const rows = withDealShares(raw);
  if (rows.length === 0) return <p className="muted empty">No counterparties yet.</p>;
  return (
    <>
      <DataTable columns={COUNTERPARTY_COLUMNS} rows={rows} rowKey={(r) => r.agent} testId="counterparties" fold="sm" />
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
        Folded from {a.folded} verified batch{a.folded === 1 ? '' : 'es'}, from{' '}
        <EpochTime epoch={a.fromEpoch ?? a.toEpoch} /> to <EpochTime epoch={a.toEpoch} />; each is listed under{' '}
        <a href="#batches">Batches</a> with a link to verify it in your browser.
      </p>
    </div>
  );
}
