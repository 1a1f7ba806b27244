/**
 * The collusion signals (lib/wire/collusion.ts) as tables: one per signal, each with a sentence
 * saying what it shows, agents by name, the stake beside them and the evidence one click away
 * (the FEEDBACK envelopes, the conversations). Rendered on the server for /collusion and, filtered
 * to one agent, on the agent page.
 */
import Link from 'next/link';
import type { CollusionView } from '../../lib/wire/collusion';
import { Ident } from '../CopyId';
import { count, formatTokenAmount, shortHex, USDC_TOKEN } from '../format';
import { AgentName } from '../names/AgentName';
import { Term } from '../Term';
import { type Column, DataTable } from '../table/DataTable';
import { Time } from '../time/Time';

/** A duration in the unit that reads best. */
export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (ms < 172_800_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  return `${(ms / 86_400_000).toFixed(1)} days`;
}

const WARN = { color: 'var(--warn)' } as const;

const percent = (x: number) => `${(x * 100).toFixed(x === 1 || x === 0 ? 0 : 1)} %`;

/** Stake still slashable: locked, or unlocking (slashable until claimed). */
const AT_RISK = new Set(['locked', 'unlocking']);

export function StakeCell({
  stakes,
  agent,
  chain,
}: {
  stakes: CollusionView['stakes'];
  agent: string;
  chain: boolean;
}) {
  const s = stakes[agent];
  if (!s) {
    return (
      <span
        className="muted"
        title={
          chain
            ? 'The chain indexer has no stake account for this agent.'
            : 'This observatory runs no chain, so no stake is indexed.'
        }
      >
        unknown{chain ? ': no stake account' : ': no chain'}
      </span>
    );
  }
  const amount = formatTokenAmount(BigInt(s.amount), USDC_TOKEN);
  if (AT_RISK.has(s.status))
    return (
      <span className="mono" data-stake={s.amount}>
        {amount} <span className="muted small">({s.status})</span>
      </span>
    );
  return (
    <span title={`Stored amount ${amount}; a ${s.status} stake cannot be slashed.`}>
      <span className="mono">none</span> <span className="muted small">({s.status})</span>
    </span>
  );
}

const EnvelopeLink = ({ id, label }: { id: string; label: string }) => (
  <Link
    href={`/envelopes/${id}`}
    prefetch={false}
    className="small"
    title={`FEEDBACK envelope ${id}: open and verify it`}
  >
    {label}
  </Link>
);
const ConversationLink = ({ id }: { id: string }) => (
  <Ident kind="conversation id" value={id}>
    <Link href={`/conversations/${id}`} prefetch={false} className="mono small" title={`conversation ${id}`}>
      {shortHex(id, 6, 4)}
    </Link>
  </Ident>
);

type Row<K extends 'reciprocal' | 'concentration' | 'dealless'> = CollusionView[K][number];
type NotaryRow = CollusionView['notaryReuse']['rows'][number];

const stakeColumn = <R,>(v: CollusionView, chain: boolean, agents: (r: R) => string[]): Column<R> => ({
  label: 'Stake at risk',
  head: <Term k="stake">Stake at risk</Term>,
  className: 'small',
  cell: (r) =>
    // A pair's two agents differ, so each names its line.
    agents(r).map((a) => (
      <div key={a}>
        <StakeCell stakes={v.stakes} agent={a} chain={chain} />
      </div>
    )),
});

/** Who, with how many (without a deal) and the stake at every width; the figures and the evidence fold. */
function reciprocalColumns(v: CollusionView, chain: boolean): Column<Row<'reciprocal'>>[] {
  return [
    { label: 'Agent', priority: true, cell: (r) => <AgentName id={r.agent} /> },
    {
      label: 'Counterparts (without a deal)',
      head: (
        <span title="Reciprocal counterparts, and of those, how many without a deal between them">
          Counterparts (without a deal)
        </span>
      ),
      priority: true,
      className: 'num mono',
      cell: (r) => (
        <>
          {count(r.counterparts)}{' '}
          {r.counterpartsWithoutDeal > 0 ? (
            <b style={WARN}>({count(r.counterpartsWithoutDeal)})</b>
          ) : (
            <span className="muted">(0)</span>
          )}
        </>
      ),
    },
    {
      label: 'Given / received',
      className: 'num mono',
      cell: (r) => `${count(r.given)} / ${count(r.received)}`,
    },
    {
      label: 'Mean score given / received',
      className: 'num mono',
      cell: (r) => `${r.meanGiven.toFixed(2)} / ${r.meanReceived.toFixed(2)}`,
    },
    {
      label: 'Gap',
      head: <Term k="feedbackGap">Gap</Term>,
      className: 'num mono',
      cell: (r) => (r.medianGapMs === null ? <span className="muted">unknown</span> : duration(r.medianGapMs)),
    },
    stakeColumn(v, chain, (r) => [r.agent]),
    {
      label: 'Evidence',
      priority: true,
      className: 'small',
      cell: (r) => (
        <>
          {r.pairs.map((p) => (
            <div key={p.counterpart}>
              <AgentName id={p.counterpart} /> {p.given}↔{p.received}
              {p.givenWithoutDeal > 0 && p.receivedWithoutDeal > 0 ? <span style={WARN}> no deal</span> : null}
              {' · '}
              <EnvelopeLink id={p.latestGiven} label="given" /> ·{' '}
              <EnvelopeLink id={p.latestReceived} label="received" />
            </div>
          ))}
          {r.counterparts > r.pairs.length ? (
            <div className="muted">and {r.counterparts - r.pairs.length} more</div>
          ) : null}
        </>
      ),
    },
  ];
}

const unknownOr = (x: number | null, reason: string | null, shown: (x: number) => string) =>
  x === null ? (
    <span className="muted" title={reason ?? ''}>
      unknown
    </span>
  ) : (
    shown(x)
  );

/** Who, its top counterparty, share and HHI at every width; counts, evidence and stake fold. */
function concentrationColumns(v: CollusionView, chain: boolean): Column<Row<'concentration'>>[] {
  return [
    { label: 'Agent', priority: true, cell: (r) => <AgentName id={r.agent} /> },
    { label: 'Deals', className: 'num mono', cell: (r) => count(r.deals) },
    { label: 'Counterparties', className: 'num mono', cell: (r) => count(r.counterparties) },
    {
      label: 'Top counterparty',
      priority: true,
      cell: (r) => (
        <>
          <AgentName id={r.topCounterparty} /> <span className="muted small">({count(r.topDeals)})</span>
        </>
      ),
    },
    {
      label: 'Top share',
      priority: true,
      className: 'num mono',
      cell: (r) => unknownOr(r.topShare, r.unknownReason, percent),
    },
    {
      label: 'HHI',
      head: <Term k="hhi">HHI</Term>,
      priority: true,
      className: 'num mono',
      cell: (r) => unknownOr(r.hhi, r.unknownReason, (x) => x.toFixed(4)),
    },
    {
      label: 'Evidence',
      className: 'small',
      cell: (r) => (
        <>
          latest deal with it: <ConversationLink id={r.latestDeal} />
          {r.unknownReason ? <div className="muted">{r.unknownReason}</div> : null}
        </>
      ),
    },
    stakeColumn(v, chain, (r) => [r.agent]),
  ];
}

/** The pair, its notary and how often at every width; the rest folds. */
function notaryColumns(v: CollusionView, chain: boolean): Column<NotaryRow>[] {
  return [
    {
      label: 'Pair',
      priority: true,
      cell: (r) => (
        <>
          <AgentName id={r.agents[0]} />
          <br />
          <AgentName id={r.agents[1]} />
        </>
      ),
    },
    { label: 'Notary most often', priority: true, cell: (r) => <AgentName id={r.notary} /> },
    {
      label: 'Same notary / with a notary',
      priority: true,
      className: 'num mono',
      cell: (r) => (
        <>
          {count(r.sameNotary)} / {count(r.assigned)} <span className="muted">({percent(r.share)})</span>
        </>
      ),
    },
    { label: 'Distinct notaries', className: 'num mono', cell: (r) => count(r.distinctNotaries) },
    {
      label: 'Evidence',
      className: 'small',
      cell: (r) =>
        r.conversations.map((c, i) => (
          <span key={c}>
            {i ? ', ' : ''}
            <ConversationLink id={c} />
          </span>
        )),
    },
    stakeColumn(v, chain, (r) => [r.agents[0], r.agents[1]]),
  ];
}

/** The agent rated and how much came from raters without deals at every width; the rest folds. */
function deallessColumns(v: CollusionView, chain: boolean): Column<Row<'dealless'>>[] {
  return [
    { label: 'Agent rated', priority: true, cell: (r) => <AgentName id={r.agent} /> },
    {
      label: 'From raters without deals / all received',
      priority: true,
      className: 'num mono',
      cell: (r) => `${count(r.fromDealless)} / ${count(r.received)}`,
    },
    {
      label: 'Raters',
      className: 'small',
      cell: (r) => (
        <>
          {r.raters.map((a) => (
            <div key={a}>
              <AgentName id={a} />
            </div>
          ))}
          {r.raterCount > r.raters.length ? (
            <div className="muted">and {r.raterCount - r.raters.length} more</div>
          ) : null}
        </>
      ),
    },
    { label: 'Their mean score', className: 'num mono', cell: (r) => r.meanScore.toFixed(2) },
    {
      label: 'Evidence',
      className: 'small',
      cell: (r) =>
        r.latest.map((e, i) => (
          <span key={e}>
            {i ? ' · ' : ''}
            <EnvelopeLink id={e} label={shortHex(e, 6, 0)} />
          </span>
        )),
    },
    stakeColumn(v, chain, (r) => [r.agent]),
  ];
}

export function ReciprocalTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.reciprocal.length === 0) return <p className="muted empty">No two agents rated each other in the window.</p>;
  return (
    <DataTable
      testId="collusion-reciprocal"
      rows={v.reciprocal}
      rowKey={(r) => r.agent}
      rowProps={(r) => ({ 'data-agent-row': r.agent, 'data-without-deal': String(r.counterpartsWithoutDeal) })}
      columns={reciprocalColumns(v, chain)}
      fold="lg"
    />
  );
}

export function ConcentrationTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.concentration.length === 0) return <p className="muted empty">No deals in the window.</p>;
  return (
    <DataTable
      testId="collusion-concentration"
      rows={v.concentration}
      rowKey={(r) => r.agent}
      rowProps={(r) => ({ 'data-agent-row': r.agent })}
      columns={concentrationColumns(v, chain)}
      fold="lg"
    />
  );
}

export function NotaryReuseTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  const n = v.notaryReuse;
  const unknown =
    n.unknownNotary + n.unknownPair > 0 ? (
      <p className="muted small" data-testid="collusion-notary-unknown">
        Not counted: {count(n.unknownNotary)} conversation{n.unknownNotary === 1 ? '' : 's'} whose notary is unknown (a
        broadcast NOTARIZE_ASSIGN, or assignments naming different notaries) and {count(n.unknownPair)} whose pair is
        unknown (not exactly two negotiators seen).
      </p>
    ) : null;
  if (n.rows.length === 0)
    return (
      <>
        <p className="muted empty">No two agents had a notary in two or more of their conversations in the window.</p>
        {unknown}
      </>
    );
  return (
    <>
      <DataTable
        testId="collusion-notary"
        rows={n.rows}
        rowKey={(r) => r.agents.join(':')}
        columns={notaryColumns(v, chain)}
        fold="lg"
      />
      {unknown}
    </>
  );
}

export function DeallessTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.dealless.length === 0)
    return <p className="muted empty">No feedback in the window came from an agent without deals.</p>;
  return (
    <DataTable
      testId="collusion-dealless"
      rows={v.dealless}
      rowKey={(r) => r.agent}
      rowProps={(r) => ({ 'data-agent-row': r.agent })}
      columns={deallessColumns(v, chain)}
      fold="lg"
    />
  );
}

/** One sentence on what the window covered, per source. */
export function WindowNote({ v }: { v: CollusionView }) {
  const w = v.windows;
  const part = (label: string, x: CollusionView['windows']['feedback']) =>
    x.truncated ? (
      <>
        the newest {count(x.read)} {label} (since <Time ms={x.oldestMs} />; older ones left out)
      </>
    ) : (
      `all ${count(x.read)} ${label}`
    );
  return (
    <p className="muted small" data-testid="collusion-window">
      <Term k="signalWindow">Read</Term> over {part('FEEDBACK envelopes', w.feedback)},{' '}
      {part('conversations', w.conversations)} and {part('NOTARIZE_ASSIGN envelopes', w.assignments)}, in {v.tookMs} ms.
    </p>
  );
}

/** One agent's signals in a few lines (the agent page), with the full tables one click away. */
export function AgentCollusionSummary({
  v,
  agent,
  chain,
  href,
}: {
  v: CollusionView;
  agent: string;
  chain: boolean;
  href: string;
}) {
  const rec = v.reciprocal.find((r) => r.agent === agent);
  const conc = v.concentration.find((r) => r.agent === agent);
  const pairs = v.notaryReuse.rows.filter((r) => r.agents.includes(agent));
  const asNotary = v.notaryReuse.rows.filter((r) => r.notary === agent && !r.agents.includes(agent));
  const dl = v.dealless.find((r) => r.agent === agent);
  return (
    <div data-testid="agent-collusion">
      <dl className="kv">
        <dt>
          <Term k="reciprocalFeedback">Reciprocal feedback</Term>
        </dt>
        <dd>
          {rec ? (
            <>
              {count(rec.counterparts)} counterpart{rec.counterparts === 1 ? '' : 's'},{' '}
              <b style={rec.counterpartsWithoutDeal ? WARN : undefined}>
                {count(rec.counterpartsWithoutDeal)} without a deal
              </b>
              ; gap {rec.medianGapMs === null ? 'unknown' : duration(rec.medianGapMs)}
            </>
          ) : (
            <span className="muted">none in the window</span>
          )}
        </dd>
        <dt>
          <Term k="concentration">Concentration</Term>
        </dt>
        <dd>
          {conc ? (
            conc.hhi === null ? (
              <span className="muted">unknown: {conc.unknownReason}</span>
            ) : (
              <>
                <Term k="hhi">HHI</Term> <span className="mono">{conc.hhi.toFixed(4)}</span>,{' '}
                {percent(conc.topShare ?? 0)} of {count(conc.deals)} deals with{' '}
                <AgentName id={conc.topCounterparty} copy={false} />
              </>
            )
          ) : (
            <span className="muted">no deals in the window</span>
          )}
        </dd>
        <dt>
          <Term k="notaryReuse">Notary reuse</Term>
        </dt>
        <dd>
          {pairs.length || asNotary.length ? (
            [...pairs, ...asNotary].map((r) => (
              <div key={r.agents.join(':')}>
                <AgentName id={r.notary} copy={false} /> in {count(r.sameNotary)} of {count(r.assigned)} conversations
                of <AgentName id={r.agents[0]} copy={false} /> and <AgentName id={r.agents[1]} copy={false} />
              </div>
            ))
          ) : (
            <span className="muted">no pair with a notary twice or more</span>
          )}
        </dd>
        <dt>
          <Term k="deallessRaters">Rated by agents without deals</Term>
        </dt>
        <dd>
          {dl ? (
            <b style={WARN}>
              {count(dl.fromDealless)} of {count(dl.received)} feedback, from {count(dl.raterCount)} rater
              {dl.raterCount === 1 ? '' : 's'}
            </b>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>
          <Term k="stake">Stake at risk</Term>
        </dt>
        <dd>
          <StakeCell stakes={v.stakes} agent={agent} chain={chain} />
        </dd>
      </dl>
      <p className="muted small">
        <Link href={href}>Evidence and the other agents →</Link>
      </p>
    </div>
  );
}
