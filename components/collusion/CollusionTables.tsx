/**
 * The collusion signals (lib/wire/collusion.ts) as tables: one per signal, each with a sentence
 * saying what it shows, agents by name, the stake beside them and the evidence one click away
 * (the FEEDBACK envelopes, the conversations). Rendered on the server for /collusion and, filtered
 * to one agent, on the agent page.
 */
import Link from 'next/link';
import type { CollusionView } from '../../lib/wire/collusion';
import { count, formatTokenAmount, shortHex, USDC_TOKEN } from '../format';
import { AgentName } from '../names/AgentName';
import { Term } from '../Term';

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
  <Link href={`/conversations/${id}`} prefetch={false} className="mono small" title={`conversation ${id}`}>
    {shortHex(id, 6, 4)}
  </Link>
);

export function ReciprocalTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.reciprocal.length === 0) return <p className="muted empty">No two agents rated each other in the window.</p>;
  return (
    <div className="table-wrap">
      <table className="list" data-testid="collusion-reciprocal">
        <thead>
          <tr>
            <th>Agent</th>
            <th className="num" title="Reciprocal counterparts, and of those, how many without a deal between them">
              Counterparts (without a deal)
            </th>
            <th className="num">Given / received</th>
            <th className="num">Mean score given / received</th>
            <th className="num">
              <Term k="feedbackGap">Gap</Term>
            </th>
            <th>
              <Term k="stake">Stake at risk</Term>
            </th>
            <th>Evidence</th>
          </tr>
        </thead>
        <tbody>
          {v.reciprocal.map((r) => (
            <tr key={r.agent} data-agent-row={r.agent} data-without-deal={r.counterpartsWithoutDeal}>
              <td>
                <AgentName id={r.agent} />
              </td>
              <td className="num mono">
                {count(r.counterparts)}{' '}
                {r.counterpartsWithoutDeal > 0 ? (
                  <b style={WARN}>({count(r.counterpartsWithoutDeal)})</b>
                ) : (
                  <span className="muted">(0)</span>
                )}
              </td>
              <td className="num mono">
                {count(r.given)} / {count(r.received)}
              </td>
              <td className="num mono">
                {r.meanGiven.toFixed(2)} / {r.meanReceived.toFixed(2)}
              </td>
              <td className="num mono">
                {r.medianGapMs === null ? <span className="muted">unknown</span> : duration(r.medianGapMs)}
              </td>
              <td>
                <StakeCell stakes={v.stakes} agent={r.agent} chain={chain} />
              </td>
              {/* The widest cell goes last and wraps, so the figures stay in view on a laptop screen. */}
              <td className="small" style={{ whiteSpace: 'normal', minWidth: 260 }}>
                {r.pairs.map((p) => (
                  <div key={p.counterpart}>
                    <AgentName id={p.counterpart} copy={false} /> {p.given}↔{p.received}
                    {p.givenWithoutDeal > 0 && p.receivedWithoutDeal > 0 ? <span style={WARN}> no deal</span> : null}
                    {' · '}
                    <EnvelopeLink id={p.latestGiven} label="given" /> ·{' '}
                    <EnvelopeLink id={p.latestReceived} label="received" />
                  </div>
                ))}
                {r.counterparts > r.pairs.length ? (
                  <div className="muted">and {r.counterparts - r.pairs.length} more</div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ConcentrationTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.concentration.length === 0) return <p className="muted empty">No deals in the window.</p>;
  return (
    <div className="table-wrap">
      <table className="list" data-testid="collusion-concentration">
        <thead>
          <tr>
            <th>Agent</th>
            <th className="num">Deals</th>
            <th className="num">Counterparties</th>
            <th>Top counterparty</th>
            <th className="num">Top share</th>
            <th className="num">
              <Term k="hhi">HHI</Term>
            </th>
            <th>Evidence</th>
            <th>
              <Term k="stake">Stake at risk</Term>
            </th>
          </tr>
        </thead>
        <tbody>
          {v.concentration.map((r) => (
            <tr key={r.agent} data-agent-row={r.agent}>
              <td>
                <AgentName id={r.agent} />
              </td>
              <td className="num mono">{count(r.deals)}</td>
              <td className="num mono">{count(r.counterparties)}</td>
              <td>
                <AgentName id={r.topCounterparty} copy={false} />{' '}
                <span className="muted small">({count(r.topDeals)})</span>
              </td>
              <td className="num mono">
                {r.topShare === null ? (
                  <span className="muted" title={r.unknownReason ?? ''}>
                    unknown
                  </span>
                ) : (
                  percent(r.topShare)
                )}
              </td>
              <td className="num mono">
                {r.hhi === null ? (
                  <span className="muted" title={r.unknownReason ?? ''}>
                    unknown
                  </span>
                ) : (
                  r.hhi.toFixed(4)
                )}
              </td>
              <td className="small">
                latest deal with it: <ConversationLink id={r.latestDeal} />
                {r.unknownReason ? <div className="muted">{r.unknownReason}</div> : null}
              </td>
              <td>
                <StakeCell stakes={v.stakes} agent={r.agent} chain={chain} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
      <div className="table-wrap">
        <table className="list" data-testid="collusion-notary">
          <thead>
            <tr>
              <th>Pair</th>
              <th>Notary most often</th>
              <th className="num">Same notary / with a notary</th>
              <th className="num">Distinct notaries</th>
              <th>Evidence</th>
              <th>
                <Term k="stake">Stake at risk</Term>
              </th>
            </tr>
          </thead>
          <tbody>
            {n.rows.map((r) => (
              <tr key={r.agents.join(':')}>
                <td>
                  <AgentName id={r.agents[0]} copy={false} />
                  <br />
                  <AgentName id={r.agents[1]} copy={false} />
                </td>
                <td>
                  <AgentName id={r.notary} copy={false} />
                </td>
                <td className="num mono">
                  {count(r.sameNotary)} / {count(r.assigned)} <span className="muted">({percent(r.share)})</span>
                </td>
                <td className="num mono">{count(r.distinctNotaries)}</td>
                <td className="small">
                  {r.conversations.map((c, i) => (
                    <span key={c}>
                      {i ? ', ' : ''}
                      <ConversationLink id={c} />
                    </span>
                  ))}
                </td>
                <td className="small">
                  <StakeCell stakes={v.stakes} agent={r.agents[0]} chain={chain} />
                  <br />
                  <StakeCell stakes={v.stakes} agent={r.agents[1]} chain={chain} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {unknown}
    </>
  );
}

export function DeallessTable({ v, chain }: { v: CollusionView; chain: boolean }) {
  if (v.dealless.length === 0)
    return <p className="muted empty">No feedback in the window came from an agent without deals.</p>;
  return (
    <div className="table-wrap">
      <table className="list" data-testid="collusion-dealless">
        <thead>
          <tr>
            <th>Agent rated</th>
            <th className="num">From raters without deals / all received</th>
            <th>Raters</th>
            <th className="num">Their mean score</th>
            <th>Evidence</th>
            <th>
              <Term k="stake">Stake at risk</Term>
            </th>
          </tr>
        </thead>
        <tbody>
          {v.dealless.map((r) => (
            <tr key={r.agent} data-agent-row={r.agent}>
              <td>
                <AgentName id={r.agent} />
              </td>
              <td className="num mono">
                {count(r.fromDealless)} / {count(r.received)}
              </td>
              <td className="small">
                {r.raters.map((a) => (
                  <div key={a}>
                    <AgentName id={a} copy={false} />
                  </div>
                ))}
                {r.raterCount > r.raters.length ? (
                  <div className="muted">and {r.raterCount - r.raters.length} more</div>
                ) : null}
              </td>
              <td className="num mono">{r.meanScore.toFixed(2)}</td>
              <td className="small">
                {r.latest.map((e, i) => (
                  <span key={e}>
                    {i ? ' · ' : ''}
                    <EnvelopeLink id={e} label={shortHex(e, 6, 0)} />
                  </span>
                ))}
              </td>
              <td>
                <StakeCell stakes={v.stakes} agent={r.agent} chain={chain} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One sentence on what the window covered, per source. */
export function WindowNote({ v }: { v: CollusionView }) {
  const w = v.windows;
  const part = (label: string, x: CollusionView['windows']['feedback']) =>
    x.truncated
      ? `the newest ${count(x.read)} ${label} (since ${
          x.oldestMs === null ? 'unknown' : new Date(x.oldestMs).toISOString().replace('T', ' ').slice(0, 19)
        } UTC; older ones left out)`
      : `all ${count(x.read)} ${label}`;
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
