'use server';
/**
 * The agent page's two history charts (reputation over time; stake and lease over epochs), drawn
 * on the server when the reader scrolls to them (components/agent/OnDemand.tsx) instead of with
 * the page: each is an SVG of a few hundred elements that the page's HTML and its RSC payload would
 * both carry, about a fifth of the page, for readers who may never scroll that far. The answer is
 * the chart's RSC elements (no charting code in the browser); the reads are the ones the page made.
 */
import { EconomyChart } from '../../../components/agent/EconomyChart';
import { ReputationChart } from '../../../components/agent/ReputationChart';
import { fromHex } from '../../../lib/protocol/hex';
import { agentHex } from '../../../lib/wire/agent-id';
import { loadEconomyHistory } from '../../_lib/economy-history';
import { loadReputationHistory } from '../../_lib/reputation-history';
import { getServices } from '../../_lib/services';

/** Chain events the stake and lease chart reads: its newest epochs with events, not every one. */
const ECONOMY_EVENTS = 600;

export async function agentChart(kind: 'reputation' | 'economy', agent: string): Promise<React.ReactNode> {
  const o = getServices();
  const id = typeof agent === 'string' ? agentHex(agent) : null;
  // A production build hides a thrown error's message from the browser: a refusal is drawn as a sentence instead.
  if (!o) return <p className="muted empty">The observatory is not running.</p>;
  if (!id) return <p className="muted empty">Not an agent id: {String(agent).slice(0, 80)}</p>;
  try {
    if (kind === 'reputation') return <ReputationChart h={await loadReputationHistory(o, fromHex(id))} />;
    if (kind === 'economy')
      return (
        <EconomyChart view={await loadEconomyHistory(o, id, ECONOMY_EVENTS)} epochSeconds={o.config.epochSeconds} />
      );
    return <p className="muted empty">No chart named {String(kind).slice(0, 40)}.</p>;
  } catch (e) {
    return <p className="reason">The chart could not be read: {(e as Error).message}</p>;
  }
}
