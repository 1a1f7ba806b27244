import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { loadAgent, loadConversations, loadEnvelopes } from '../../_lib/data';
import { agentHex } from '../../_lib/agent-id';
import { NotRunning } from '../../_lib/not-running';
import { getServices } from '../../_lib/services';
import { EnvelopeFeed } from '../../../components/EnvelopeFeed';
import { CopyId } from '../../../components/CopyId';
import { ConversationList } from '../../../components/ConversationList';
import { base58, count, dateTime, shortHex } from '../../../components/format';
import type { ReputationView } from '../../../lib/wire';
import { AgentChain } from '../../../components/AgentChain';
import { fromHex } from '../../../lib/protocol/hex';
import { AuthoritativeReputation, Counterparties } from '../../../components/agent/AgentTrust';
import { ReputationChart } from '../../../components/agent/ReputationChart';
import { EconomyChart } from '../../../components/agent/EconomyChart';
import { loadEconomyHistory } from '../../_lib/economy-history';
import { loadAdvertised } from '../../_lib/advertise';
import { AdvertisedCapabilities } from '../../../components/agent/AdvertisedCapabilities';
import { loadReputationHistory } from '../../_lib/reputation-history';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Agent ${shortHex((await params).id)}` };
}

/** Fixed point ONE = 1,000,000 (docs/protocol.md §7) shown as a signed decimal. */
function fixed(v: string): string {
  const n = Number(v) / 1_000_000;
  return Number.isFinite(n) ? n.toFixed(3) : v;
}

function Reputation({ r }: { r: ReputationView | null }) {
  if (!r) return <p className="muted empty">No feedback about this agent yet.</p>;
  return (
    <dl className="kv">
      <dt>Reliability</dt>
      <dd className="mono">{fixed(r.reliabilityScore)}</dd>
      <dt>Cooperation</dt>
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
  const raw = (await params).id;
  const id = raw.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) {
    // A base58 address (as wallets show the identity mint) goes to the hex URL.
    const hex = agentHex(decodeURIComponent(raw));
    if (hex) redirect(`/agents/${hex}`);
    notFound();
  }
  const agent = await loadAgent(o, id);
  if (!agent) notFound();
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
  return (
    <>
      <div className="crumbs">
        <Link href="/agents">Agents</Link> / agent
      </div>
      <header className="page-head">
        <div>
          <h1 className="mono" style={{ fontSize: 18, overflowWrap: 'anywhere' }}>
            {agent.name ?? agent.id}
          </h1>
          <p className="muted">
            <span className={`dot ${agent.online ? 'on' : ''}`} aria-hidden /> {agent.online ? 'online' : 'offline'} · first seen {dateTime(agent.firstSeenMs)} · last seen{' '}
            {dateTime(agent.lastSeenMs)} UTC
          </p>
        </div>
      </header>
      <div className="grid-2">
        <section className="card">
          <h2>Identity</h2>
          <dl className="kv">
            <dt>Agent id</dt>
            <dd className="mono">{agent.id} <CopyId hex={agent.id} /></dd>
            <dt>Address (base58)</dt>
            <dd className="mono" data-testid="agent-base58">{base58(agent.id)}</dd>
            <dt>Envelopes sent</dt>
            <dd className="mono">{count(agent.envelopes)}</dd>
            <dt>Conversations</dt>
            <dd className="mono">{count(conversations.length)}</dd>
          </dl>
        </section>
        <section className="card">
          <h2>Reputation (gossip fold)</h2>
          <Reputation r={agent.reputation} />
        </section>
      </div>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Advertised capabilities</h2>
        <AdvertisedCapabilities a={advertised} />
      </section>
      {chain ? <AgentChain agent={id} initial={chain} /> : null}
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Reputation over time</h2>
        <ReputationChart h={history} />
      </section>
      {o.chain ? (
        <section className="card" style={{ marginBottom: 16 }}>
          <h2>Stake and lease over epochs</h2>
          <EconomyChart points={economy} />
        </section>
      ) : null}
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
        <h2>Conversations</h2>
        <ConversationList conversations={conversations} self={agent.id} />
      </section>
      <section className="card">
        <h2>Latest envelopes</h2>
        <EnvelopeFeed envelopes={page.envelopes} empty="No envelopes from or to this agent." />
      </section>
    </>
  );
}
