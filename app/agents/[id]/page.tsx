import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { loadAgent, loadConversations, loadEnvelopes } from '../../_lib/data';
import { agentHex } from '../../_lib/agent-id';
import { NotRunning } from '../../_lib/not-running';
import { getServices } from '../../_lib/services';
import { EnvelopeFeed } from '../../../components/EnvelopeFeed';
import { CopyId } from '../../../components/CopyId';
import { ConversationList } from '../../../components/ConversationList';
import { base58, count } from '../../../components/format';
import { agentDisplayName, shortBase58 } from '../../../components/names/label';
import { Time } from '../../../components/time/Time';
import { AccountLink } from '../../../components/site';
import { Term } from '../../../components/Term';
import { BackingSentence } from '../../../components/reputation/Backing';
import type { ReputationView } from '../../../lib/wire';
import { AgentChain } from '../../../components/AgentChain';
import { fromHex } from '../../../lib/protocol/hex';
import { AuthoritativeReputation, Counterparties } from '../../../components/agent/AgentTrust';
import { ReputationChart } from '../../../components/agent/ReputationChart';
import { EconomyChart } from '../../../components/agent/EconomyChart';
import { loadEconomyHistory } from '../../_lib/economy-history';
import { loadDealSummaries } from '../../_lib/deals';
import { loadAdvertised } from '../../_lib/advertise';
import { AdvertisedCapabilities } from '../../../components/agent/AdvertisedCapabilities';
import { loadReputationHistory } from '../../_lib/reputation-history';
import { SatiProfile } from '../../../components/agent/SatiProfile';
import { SatiReputation } from '../../../components/agent/SatiReputation';
import { Suspense } from 'react';
import { AgentCollusion } from './AgentCollusion';
import { AgentReconciliation } from './AgentReconciliation';
import { WatchButton } from '../../../components/alerts/WatchButton';
import { scorePoints } from '../../../lib/wire/score';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const hex = agentHex(decodeURIComponent((await params).id));
  if (!hex) return { title: 'Agent' };
  const o = getServices();
  const name = o ? o.chain?.satiProfile(fromHex(hex))?.name ?? (await o.reads.getAgent(fromHex(hex)).catch(() => null))?.label : null;
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

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  // The base58 address (as every page links it and wallets show the identity mint) or 64 hex.
  const id = agentHex(decodeURIComponent((await params).id));
  if (!id) notFound();
  const agent = await loadAgent(o, id);
  if (!agent) {
    // Registered on chain but not seen on the mesh yet: the page exists from the registration.
    const holder = o.chain ? await o.chain.identityHolder(fromHex(id)) : null;
    if (!holder || !o.chain) notFound();
    const [chain, economy] = await Promise.all([o.chain.agentChain(fromHex(id)).catch(() => null), loadEconomyHistory(o, id)]);
    return (
      <>
        <div className="crumbs"><Link href="/agents">Agents</Link> / agent</div>
        <header className="page-head">
          <div>
            <h1 style={{ overflowWrap: 'anywhere' }} data-testid="agent-name">{agentDisplayName(id, o.chain.satiProfile(fromHex(id))?.name ?? null)}</h1>
            <p className="muted" data-testid="agent-not-on-mesh">Registered on chain; not seen on the mesh yet (no envelope from this agent so far).</p>
          </div>
          <WatchButton kind="agent" target={base58(id)} name={agentDisplayName(id, o.chain.satiProfile(fromHex(id))?.name ?? null)} />
        </header>
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>Identity</h2>
          <dl className="kv">
            <dt><Term k="base58">Agent id</Term></dt>
            <dd><span className="mono" data-testid="agent-base58">{base58(id)}</span> <CopyId value={base58(id)} /></dd>
            <dt>Identity mint</dt>
            <dd><AccountLink address={base58(id)} label="open in Solana Explorer" /></dd>
            <dt>Raw (hex)</dt>
            <dd><details><summary className="small muted">show</summary><span className="mono small">{id}</span></details></dd>
            <dt>Identity NFT holder</dt>
            <dd className="mono" data-testid="agent-holder">{holder}</dd>
          </dl>
        </section>
        {chain ? <AgentChain agent={id} initial={chain} /> : null}
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>Stake and lease over epochs</h2>
          <EconomyChart view={economy} epochSeconds={o.config.epochSeconds} />
        </section>
      </>
    );
  }
  const [page, conversations, counterparties, chain, rep, history, economy, advertised] = await Promise.all([
    loadEnvelopes(o, { agent: id, limit: 50 }),
    loadConversations(o, id),
    o.observatory.store.counterpartiesOf(fromHex(id)),
    o.chain ? o.chain.agentChain(fromHex(id)).catch(() => null) : Promise.resolve(null),
    o.chain ? o.chain.reputation(fromHex(id)).catch(() => null) : Promise.resolve(null),
    loadReputationHistory(o, fromHex(id)),
    loadEconomyHistory(o, id),
    loadAdvertised(o, id),
  ]);
  // The "With" column names each deal's negotiating parties, not every agent that bid or listened.
  const parties = await loadDealSummaries(o, conversations.map((c) => c.id));
  return (
    <>
      <div className="crumbs">
        <Link href="/agents">Agents</Link> / agent
      </div>
      <header className="page-head">
        <div>
          <h1 style={{ overflowWrap: 'anywhere' }} data-testid="agent-name">
            {agentDisplayName(agent.id, o.chain?.satiProfile(fromHex(id))?.name ?? agent.name)}
          </h1>
          <p className="muted">
            <span className={`dot ${agent.online ? 'on' : ''}`} aria-hidden /> {agent.online ? 'online' : 'offline'} · first seen <Time ms={agent.firstSeenMs} /> · last seen{' '}
            <Time ms={agent.lastSeenMs} />
          </p>
        </div>
        <WatchButton kind="agent" target={base58(agent.id)} name={agentDisplayName(agent.id, o.chain?.satiProfile(fromHex(id))?.name ?? agent.name)} />
      </header>
      <div className="grid-2">
        <section className="card">
          <h2>Identity</h2>
          <dl className="kv">
            <dt>Name</dt>
            <dd>{agentDisplayName(agent.id, o.chain?.satiProfile(fromHex(id))?.name ?? agent.name)}{o.chain?.satiProfile(fromHex(id))?.name ?? agent.name ? <span className="muted small"> (its <Term k="sati">SATI</Term> registration)</span> : <span className="muted small"> (a label derived from the id: no SATI name known)</span>}</dd>
            <dt><Term k="base58">Agent id</Term></dt>
            <dd><span className="mono" data-testid="agent-base58">{base58(agent.id)}</span> <CopyId value={base58(agent.id)} /></dd>
            {o.chain ? (
              <>
                <dt>Identity mint</dt>
                <dd><AccountLink address={base58(agent.id)} label="open in Solana Explorer" /></dd>
              </>
            ) : null}
            <dt>Raw (hex)</dt>
            <dd><details><summary className="small muted">show</summary><span className="mono small">{agent.id}</span></details></dd>
            <dt>Envelopes sent</dt>
            <dd className="mono">{count(agent.envelopes)}</dd>
            <dt>Conversations</dt>
            <dd className="mono">{count(conversations.length)}</dd>
          </dl>
        </section>
        <section className="card">
          <h2>Reputation (gossip fold)</h2>
          <Reputation r={agent.reputation} />
          {agent.backing ? <BackingSentence b={agent.backing} reliabilityNow={agent.reputation?.reliabilityScore ?? null} /> : null}
          {o.chain ? <SatiReputation r={o.chain.satiReputation()} /> : null}
        </section>
      </div>
      {o.chain ? (
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>SATI identity</h2>
          <SatiProfile p={o.chain.satiProfile(fromHex(id))} />
        </section>
      ) : null}
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Advertised capabilities</h2>
        <AdvertisedCapabilities a={advertised} />
      </section>
      {chain ? <AgentChain agent={id} initial={chain} /> : null}
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Reputation over time</h2>
        <ReputationChart h={history} />
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Stake and lease over epochs</h2>
        <EconomyChart view={economy} epochSeconds={o.config.epochSeconds} />
      </section>
      <div className="grid-2">
        <section className="card">
          <h2>Counterparties</h2>
          <Counterparties rows={counterparties.map((r) => ({ ...r, agent: Buffer.from(r.agent).toString('hex') }))} />
        </section>
        <section className="card">
          <h2>Reputation (authoritative, from batches)</h2>
          {rep ? <AuthoritativeReputation rep={rep} /> : <p className="muted empty">No chain in this process.</p>}
        </section>
      </div>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Collusion signals</h2>
        {/* Read over a window of the whole mesh's feedback: streamed in after the rest of the page. */}
        <Suspense fallback={<p className="muted">Reading the collusion signals…</p>}>
          <AgentCollusion o={o} id={id} />
        </Suspense>
      </section>
      <section className="card" style={{ marginBottom: 16 }} data-testid="agent-reconciliation">
        <h2><Term k="reconciliation">Gossip against committed logs</Term></h2>
        <AgentReconciliation o={o} id={id} />
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Conversations</h2>
        <ConversationList conversations={conversations} self={agent.id} parties={parties} />
      </section>
      <section className="card">
        <h2>Latest envelopes</h2>
        <EnvelopeFeed envelopes={page.envelopes} empty="No envelopes from or to this agent." />
      </section>
    </>
  );
}
