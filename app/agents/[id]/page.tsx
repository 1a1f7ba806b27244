import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { AgentChain } from '../../../components/AgentChain';
import { AdvertisedCapabilities } from '../../../components/agent/AdvertisedCapabilities';
import { AgentCollusion } from '../../../components/agent/AgentCollusion';
import { AgentConversations, AgentCounterparties, AgentEnvelopes } from '../../../components/agent/AgentLists';
import { AuthoritativeReputation } from '../../../components/agent/AgentTrust';
import { OnDemand } from '../../../components/agent/OnDemand';
import { SatiProfile } from '../../../components/agent/SatiProfile';
import { SatiReputation } from '../../../components/agent/SatiReputation';
import { WatchButton } from '../../../components/alerts/WatchButton';
import { agentConversationRows } from '../../../components/ConversationList';
import { CopyId } from '../../../components/CopyId';
import { feedEnvelope } from '../../../components/EnvelopeFeed';
import { base58, count } from '../../../components/format';
import { agentDisplayName, shortBase58 } from '../../../components/names/label';
import { BackingSentence } from '../../../components/reputation/Backing';
import { AccountLink } from '../../../components/site';
import { Term } from '../../../components/Term';
import { Time } from '../../../components/time/Time';
import { fromHex } from '../../../lib/protocol/hex';
import type { ConversationSummaryView, ReputationView } from '../../../lib/wire';
import { agentHex } from '../../../lib/wire/agent-id';
import { scorePoints } from '../../../lib/wire/score';
import { loadAdvertised } from '../../_lib/advertise';
import {
  AGENT_PAGE_ROWS,
  CONVERSATION_COUNT_CAP,
  loadAgentBatches,
  loadAgentChallenges,
  loadAuthoritative,
  loadStakeLease,
} from '../../_lib/agent-page';
import { loadAgent, loadAgentBacking, loadEnvelopes } from '../../_lib/data';
import { loadConversationsPage } from '../../_lib/lists';
import { NotRunning } from '../../_lib/not-running';
import { flatParams, type SearchParams } from '../../_lib/query-string';
import { getServices } from '../../_lib/services';
import { agentChart } from './charts';

export const dynamic = 'force-dynamic';

/**
 * The agent page stays the same size however long the agent has been on the mesh: the summary
 * first (identity, both reputations, stake and lease), then the first page of each history list,
 * newest first, each batch listed once, with links or a button for the rest; every read is an
 * index read of the agent's newest rows (app/_lib/agent-page.ts). The two history charts are
 * drawn when the reader scrolls to them (./charts.tsx), and the collusion signals, a read over the
 * whole mesh's newest rows, when the reader asks for them.
 */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const hex = agentHex(decodeURIComponent((await params).id));
  if (!hex) return { title: 'Agent' };
  const o = getServices();
  const name = o
    ? (o.chain?.satiProfile(fromHex(hex))?.name ?? (await o.reads.getAgent(fromHex(hex)).catch(() => null))?.label)
    : null;
  return { title: `${agentDisplayName(hex, name)} (${shortBase58(hex)})` };
}

/** A fixed-point score (docs/protocol.md §7) in score points, cut to 3 decimals (lib/wire/score.ts). */
function fixed(v: string): string {
  return /^-?\d+$/.test(v) ? scorePoints(v, 3) : v;
}

function Reputation({ r }: { r: ReputationView | null }) {
  if (!r) return <p className="muted empty">No feedback about this agent yet.</p>;
  return (
    <dl className="kv">
      <dt>Reliability (points)</dt>
      <dd className="mono">{fixed(r.reliabilityScore)}</dd>
      <dt>Cooperation (points)</dt>
      <dd className="mono">{fixed(r.cooperationIndex)}</dd>
      <dt>Notary accuracy</dt>
      <dd className="mono">{fixed(r.notaryAccuracy)}</dd>
      <dt>Tasks rated</dt>
      <dd className="mono">{r.totalTasks}</dd>
      <dt>Notarised</dt>
      <dd className="mono">{r.totalNotarized}</dd>
      <dt>Disputes</dt>
      <dd className="mono">{r.totalDisputes}</dd>
    </dl>
  );
}

export default async function AgentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const o = getServices();
  if (!o) return <NotRunning />;
  // The base58 address (as every page links it and wallets show the identity mint) or 64 hex.
  const id = agentHex(decodeURIComponent((await params).id));
  if (!id) notFound();
  const linked = linkedBatch(flatParams(await searchParams).batch);
  const agent = await loadAgent(o, id, { backing: false });
  if (!agent) {
    // Registered on chain but not seen on the mesh yet: the page exists from the registration.
    const holder = o.chain ? await o.chain.identityHolder(fromHex(id)) : null;
    if (!holder || !o.chain) notFound();
    const chain = await chainSection(o, id, linked).catch(() => null);
    return (
      <>
        <div className="crumbs">
          <Link href="/agents">Agents</Link> / agent
        </div>
        <header className="page-head">
          <div>
            <h1 style={{ overflowWrap: 'anywhere' }} data-testid="agent-name">
              {agentDisplayName(id, o.chain.satiProfile(fromHex(id))?.name ?? null)}
            </h1>
            <p className="muted" data-testid="agent-not-on-mesh">
              Registered on chain; not seen on the mesh yet (no envelope from this agent so far).
            </p>
          </div>
          <WatchButton
            kind="agent"
            target={base58(id)}
            name={agentDisplayName(id, o.chain.satiProfile(fromHex(id))?.name ?? null)}
          />
        </header>
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>Identity</h2>
          <dl className="kv">
            <dt>
              <Term k="base58">Agent id</Term>
            </dt>
            <dd>
              <span className="mono" data-testid="agent-base58">
                {base58(id)}
              </span>{' '}
              <CopyId value={base58(id)} />
            </dd>
            <dt>Identity mint</dt>
            <dd>
              <AccountLink address={base58(id)} label="open in Solana Explorer" />
            </dd>
            <dt>Raw (hex)</dt>
            <dd>
              <details>
                <summary className="small muted">show</summary>
                <span className="mono small">{id}</span>
              </details>
            </dd>
            <dt>Identity NFT holder</dt>
            <dd className="mono" data-testid="agent-holder">
              {holder}
            </dd>
          </dl>
        </section>
        {chain ? <AgentChain agent={id} initial={chain} /> : null}
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>Stake and lease over epochs</h2>
          <EconomyOnDemand id={id} />
        </section>
      </>
    );
  }
  const bytes = fromHex(id);
  const [page, conversations, conversationCount, counterparties, chain, authoritative, advertised] = await Promise.all([
    loadEnvelopes(o, { agent: id, limit: AGENT_PAGE_ROWS.envelopes }),
    loadConversationsPage(o, { agent: id, sort: 'last_seen', limit: AGENT_PAGE_ROWS.conversations }),
    o.reads.countAgentConversations(bytes, CONVERSATION_COUNT_CAP),
    o.reads.counterpartiesOf(bytes, AGENT_PAGE_ROWS.counterparties + 1),
    o.chain ? chainSection(o, id, linked).catch(() => null) : Promise.resolve(null),
    o.chain ? loadAuthoritative(o, id).catch(() => null) : Promise.resolve(null),
    loadAdvertised(o, id),
  ]);
  const conversationRows = await withNegotiators(o, agent.id, conversations.conversations);
  const b58 = base58(agent.id);
  const name = agentDisplayName(agent.id, o.chain?.satiProfile(bytes)?.name ?? agent.name);
  const satiName = o.chain?.satiProfile(bytes)?.name ?? agent.name;
  return (
    <>
      <div className="crumbs">
        <Link href="/agents">Agents</Link> / agent
      </div>
      <header className="page-head">
        <div>
          <h1 style={{ overflowWrap: 'anywhere' }} data-testid="agent-name">
            {name}
          </h1>
          <p className="muted">
            <span className={`dot ${agent.online ? 'on' : ''}`} aria-hidden /> {agent.online ? 'online' : 'offline'} ·
            first seen <Time ms={agent.firstSeenMs} /> · last seen <Time ms={agent.lastSeenMs} />
          </p>
        </div>
        <WatchButton kind="agent" target={b58} name={name} />
      </header>
      <div className="grid-2">
        <section className="card">
          <h2>Identity</h2>
          <dl className="kv">
            <dt>Name</dt>
            <dd>
              {name}
              {satiName ? (
                <span className="muted small">
                  {' '}
                  (its <Term k="sati">SATI</Term> registration)
                </span>
              ) : (
                <span className="muted small"> (a label derived from the id: no SATI name known)</span>
              )}
            </dd>
            <dt>
              <Term k="base58">Agent id</Term>
            </dt>
            <dd>
              <span className="mono" data-testid="agent-base58">
                {b58}
              </span>{' '}
              <CopyId value={b58} />
            </dd>
            {o.chain ? (
              <>
                <dt>Identity mint</dt>
                <dd>
                  <AccountLink address={b58} label="open in Solana Explorer" />
                </dd>
              </>
            ) : null}
            <dt>Raw (hex)</dt>
            <dd>
              <details>
                <summary className="small muted">show</summary>
                <span className="mono small">{agent.id}</span>
              </details>
            </dd>
            <dt>Envelopes sent</dt>
            <dd className="mono">{count(agent.envelopes)}</dd>
            <dt>Conversations</dt>
            <dd className="mono" data-testid="agent-conversation-count">
              {conversationCount >= CONVERSATION_COUNT_CAP
                ? `${count(CONVERSATION_COUNT_CAP)} or more`
                : count(conversationCount)}
            </dd>
          </dl>
        </section>
        <section className="card">
          <h2>Reputation (gossip fold)</h2>
          <Reputation r={agent.reputation} />
          <Suspense fallback={<p className="muted small">Reading who sent its feedback…</p>}>
            <AgentBacking o={o} id={id} reliability={agent.reputation?.reliabilityScore ?? null} />
          </Suspense>
          {o.chain ? <SatiReputation r={o.chain.satiReputation()} /> : null}
          <h3 className="small">Authoritative, from batches</h3>
          {authoritative ? (
            <AuthoritativeReputation a={authoritative} />
          ) : (
            <p className="muted empty">
              {o.chain ? 'Unknown: the batches could not be read.' : 'Unknown: this observatory runs no chain.'}
            </p>
          )}
        </section>
      </div>
      {chain ? <AgentChain agent={id} initial={chain} /> : null}
      <div className="grid-2">
        <section className="card">
          <h2>Counterparties</h2>
          <AgentCounterparties
            rows={counterparties
              .slice(0, AGENT_PAGE_ROWS.counterparties)
              .map((r) => ({ ...r, agent: Buffer.from(r.agent).toString('hex') }))}
          />
          {counterparties.length > AGENT_PAGE_ROWS.counterparties ? (
            <p className="muted small">
              The {AGENT_PAGE_ROWS.counterparties} with the most deals;{' '}
              <Link href={`/conversations?agent=${b58}`} prefetch={false}>
                its conversations
              </Link>{' '}
              name the others.
            </p>
          ) : null}
        </section>
        <section className="card">
          <h2>Advertised capabilities</h2>
          <AdvertisedCapabilities a={advertised} />
        </section>
      </div>
      {o.chain ? (
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>SATI identity</h2>
          <SatiProfile p={o.chain.satiProfile(bytes)} />
        </section>
      ) : null}
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Reputation over time</h2>
        <OnDemand load={agentChart.bind(null, 'reputation', id)} what="the reputation chart" minHeight={260} />
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Stake and lease over epochs</h2>
        <EconomyOnDemand id={id} />
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Conversations, latest activity first</h2>
        <AgentConversations conversations={conversationRows} self={agent.id} />
        {conversations.next ? (
          <p className="small">
            <Link
              href={`/conversations?agent=${b58}&before=${encodeURIComponent(conversations.next)}`}
              prefetch={false}
              data-testid="older-conversations"
            >
              Older conversations →
            </Link>
          </p>
        ) : null}
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Latest envelopes</h2>
        <AgentEnvelopes
          envelopes={page.envelopes.map(feedEnvelope)}
          self={id}
          empty="No envelopes from or to this agent."
        />
        {page.next ? (
          <p className="small">
            <Link href={`/envelopes?agent=${b58}&before=${page.next}`} prefetch={false} data-testid="older-envelopes">
              Older envelopes →
            </Link>
          </p>
        ) : null}
      </section>
      <section className="card">
        <h2>Collusion signals</h2>
        <AgentCollusion agent={id} agentAddress={b58} chain={Boolean(o.chain)} />
      </section>
    </>
  );
}

/**
 * The conversations' rows, each "With" naming its negotiators (as ingest keeps them, one read), not
 * every agent that bid or listened.
 */
async function withNegotiators(
  o: NonNullable<ReturnType<typeof getServices>>,
  self: string,
  conversations: ConversationSummaryView[],
) {
  const negotiators = await o.reads.conversationNegotiators(conversations.map((c) => fromHex(c.id)));
  const parties = Object.fromEntries(
    [...negotiators].map(([c, ids]) => [c, { parties: ids.map((b) => Buffer.from(b).toString('hex')) }]),
  );
  return agentConversationRows(conversations, self, parties);
}

/** The stake and lease chart, drawn when the reader gets to it (./charts.tsx). */
const EconomyOnDemand = ({ id }: { id: string }) => (
  <OnDemand load={agentChart.bind(null, 'economy', id)} what="the stake and lease chart" minHeight={240} />
);

/**
 * `?batch=<epoch>`: the batch a link opened (a challenge's, say), pinned on the page; or why the parameter is not one.
 */
function linkedBatch(v: string | undefined): { epoch: string | null; note: string | null } {
  if (v === undefined) return { epoch: null, note: null };
  const t = v.trim();
  return /^\d{1,18}$/.test(t)
    ? { epoch: String(BigInt(t)), note: null }
    : { epoch: null, note: `batch=${v.slice(0, 40)} is not an epoch (a non-negative integer): no batch is pinned` };
}

/**
 * The chain section's first pages: stake and lease, batches, challenges; and the batch a link
 * opened, pinned above the first page when older (one primary-key read, alongside the others).
 */
async function chainSection(
  o: NonNullable<ReturnType<typeof getServices>>,
  id: string,
  linked: { epoch: string | null; note: string | null },
) {
  const [accounts, batches, challenges, link] = await Promise.all([
    loadStakeLease(o, id),
    loadAgentBatches(o, id, { limit: AGENT_PAGE_ROWS.batches }),
    loadAgentChallenges(o, id),
    linked.epoch === null ? null : loadAgentBatches(o, id, { limit: 1, epoch: linked.epoch }),
  ]);
  if (!challenges) return null;
  const linkedRow = link?.rows[0] ?? null;
  // The table's columns only: the API's rows also carry the batch's hashes and account JSON, which the page shows none
  // of.
  const line = (r: (typeof batches.rows)[number]) => ({
    epoch: r.epoch,
    status: r.status,
    signature: r.signature,
    after: r.after,
    reconciliation: r.reconciliation,
    challenges: r.challenges,
  });
  return {
    ...accounts,
    agentAddress: base58(id),
    batches: { rows: batches.rows.map(line), next: batches.next },
    pinned: linkedRow && !batches.rows.some((r) => r.epoch === linkedRow.epoch) ? line(linkedRow) : null,
    linked: linked.epoch,
    linkedNote:
      linked.note ??
      (linked.epoch !== null && !linkedRow ? `This agent submitted no batch for epoch ${linked.epoch}.` : null),
    challenges: challenges.newest,
    // A pending challenge also among the newest goes by its address: its row is sent once.
    pending: {
      ...challenges.pending,
      challenges: challenges.pending.challenges.map((x) =>
        challenges.newest.challenges.some((n) => n.address === x.address) ? x.address : x,
      ),
    },
  };
}

/** How much of the gossip score comes from senders with nothing at stake: streamed after the page's first part. */
async function AgentBacking({
  o,
  id,
  reliability,
}: {
  o: NonNullable<ReturnType<typeof getServices>>;
  id: string;
  reliability: string | null;
}) {
  const b = await loadAgentBacking(o, id, reliability);
  return <BackingSentence b={b} reliabilityNow={reliability} />;
}
