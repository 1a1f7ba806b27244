/** The agent page's collusion section: this agent's signals (app/_lib/collusion.ts) in a few lines. */
import { DEFAULT_WINDOW, loadCollusion } from '../../_lib/collusion';
import type { Services } from '../../_lib/services';
import { AgentCollusionSummary } from '../../../components/collusion/CollusionTables';
import { base58 } from '../../../components/format';
import { fromHex } from '../../../lib/protocol/hex';

export async function AgentCollusion({ o, id }: { o: Services; id: string }) {
  const v = await loadCollusion(o, { agent: fromHex(id), limit: 20, window: DEFAULT_WINDOW }).catch(() => null);
  if (!v) return <p className="notice" role="alert">The collusion signals could not be read.</p>;
  return <AgentCollusionSummary v={v} agent={id} chain={Boolean(o.chain)} href={`/collusion?agent=${base58(id)}`} />;
}
