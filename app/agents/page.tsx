import type { Metadata } from 'next';
import Link from 'next/link';
import { WatchButton } from '../../components/alerts/WatchButton';
import { base58, count } from '../../components/format';
import { AgentName } from '../../components/names/AgentName';
import { BackingShare } from '../../components/reputation/Backing';
import { Term } from '../../components/Term';
import { type Column, DataTable } from '../../components/table/DataTable';
import { Time } from '../../components/time/Time';
import { AGENT_SORTS, AgentsQuerySchema, STAKE_FILTERS } from '../../lib/wire/params';
import { scorePoints } from '../../lib/wire/score';
import { loadAgentsPage } from '../_lib/lists';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams, withParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Agents' };

/** Reliability in score points (-100..100, lib/wire/score.ts), cut to 3 decimals: 62.333. */
const fraction = (fixed: string | undefined) => (fixed === undefined ? '—' : scorePoints(fixed, 3));

type AgentRow = Exclude<Awaited<ReturnType<typeof loadAgentsPage>>, Error>['agents'][number];

/**
 * The agent, whether it is online, its reliability and its last sighting at every width; the rest folds into the row's
 * details.
 */
const AGENT_COLUMNS: Column<AgentRow>[] = [
  {
    label: 'State',
    priority: true,
    cell: (a) => (
      <>
        <span className={`dot ${a.online ? 'on' : ''}`} aria-hidden />{' '}
        {a.online ? 'online' : <span className="muted">offline</span>}
      </>
    ),
  },
  { label: 'Agent', priority: true, cell: (a) => <AgentName id={a.id} name={a.name} /> },
  { label: 'Envelopes sent', className: 'num mono', cell: (a) => count(a.envelopes) },
  {
    label: 'Reliability (points)',
    head: (
      <>
        <Term k="reliability">Reliability</Term> (points)
      </>
    ),
    priority: true,
    className: 'num mono',
    cell: (a) => (
      <>
        {fraction(a.reputation?.reliabilityScore)}
        <BackingShare b={a.backing} />
      </>
    ),
  },
  { label: 'Stake', cell: (a) => (a.stake ? a.stake.status : <span className="muted">none</span>) },
  { label: 'First seen', className: 'small', cell: (a) => <Time ms={a.firstSeenMs} relative={false} /> },
  { label: 'Last seen', priority: true, className: 'small', cell: (a) => <Time ms={a.lastSeenMs} /> },
  {
    label: 'Watch',
    head: <span className="visually-hidden">Watch</span>,
    // A button with its own state: drawn once, never copied into the details.
    priority: true,
    bare: true,
    cell: (a) => <WatchButton kind="agent" target={base58(a.id)} name={a.name} compact />,
  },
];

export default async function AgentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  // The filter is the URL's query string, checked by GET /api/agents's own schema.
  const raw = flatParams(await searchParams);
  const parsed = AgentsQuerySchema.strict().safeParse(raw);
  const page = parsed.success ? await loadAgentsPage(o, parsed.data).catch((e: Error) => e) : null;
  const error = !parsed.success
    ? parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')
    : page instanceof Error
      ? page.message
      : null;
  const agents = page && !(page instanceof Error) ? page.agents : [];
  const online = agents.filter((a) => a.online).length;
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Agents</h1>
          <p className="muted">
            {count(agents.length)} agents{Object.keys(raw).length ? ' match' : ' seen'}, {count(online)} online.
          </p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <form className="filters" method="get" action="/agents" data-testid="agent-filters">
          <label>
            Online{' '}
            <select name="online" defaultValue={raw.online ?? ''}>
              <option value="">any</option>
              <option value="true">online</option>
              <option value="false">offline</option>
            </select>
          </label>
          <label>
            Stake{' '}
            <select name="stake" defaultValue={raw.stake ?? ''}>
              <option value="">any</option>
              {STAKE_FILTERS.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Reliability ≥{' '}
            <input
              name="minReliability"
              defaultValue={raw.minReliability ?? ''}
              placeholder="e.g. 50 (points)"
              size={9}
            />
          </label>
          <label>
            Reliability ≤{' '}
            <input name="maxReliability" defaultValue={raw.maxReliability ?? ''} placeholder="-100..100" size={9} />
          </label>
          <label>
            Sort by{' '}
            <select name="sort" defaultValue={raw.sort ?? 'last_seen'}>
              {AGENT_SORTS.map((s) => (
                <option key={s} value={s}>
                  {s.replace('_', ' ')}
                </option>
              ))}
            </select>
          </label>
          <label>
            Per page <input name="limit" defaultValue={raw.limit ?? ''} placeholder="1000" size={5} />
          </label>
          <button type="submit">Apply</button>
          <Link href="/agents" className="small">
            reset
          </Link>
        </form>
      </section>
      <section className="card">
        {error ? (
          <p className="notice" role="alert">
            Bad filter: {error}
          </p>
        ) : agents.length === 0 ? (
          <p className="muted empty">No agents{Object.keys(raw).length ? ' match this filter' : ' seen yet'}.</p>
        ) : (
          <>
            <p className="small muted" data-testid="backing-note">
              Reliability is the gossip fold of every FEEDBACK about an agent, and the protocol lets anyone send one:
              &ldquo;% unbacked&rdquo; is the share sent by identities with no stake and no deal with the agent (
              <Term k="unbackedFeedback">unbacked feedback</Term>); the agent page shows its score without them.
            </p>
            <DataTable
              testId="agents-table"
              rows={agents}
              rowKey={(a) => a.id}
              rowProps={(a) => ({ 'data-agent-row': a.id })}
              columns={AGENT_COLUMNS}
              fold="lg"
              detailsIn={1}
            />
          </>
        )}
        {page && !(page instanceof Error) && page.next && (
          <p style={{ marginTop: 12 }}>
            <Link href={withParams('/agents', raw, { before: page.next })} data-testid="next-page">
              Next page →
            </Link>
          </p>
        )}
      </section>
    </>
  );
}
