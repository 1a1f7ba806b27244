/**
 * The agent page's and GET /api/agents/{id}/economy's economy series (lib/wire EconomyView):
 * lib/indexer/economy.ts over the store's indexed events and accounts, or "unknown" with the
 * reason when this process has no chain.
 */
import 'server-only';
import { readEconomy, unknownEconomy } from '../../lib/indexer/economy';
import { fromHex } from '../../lib/protocol/hex';
import type { EconomyView } from '../../lib/wire';
import { base58 } from '../../lib/wire/format';
import type { Services } from './services';

/** `events`: read the newest this many events (the page's chart; default the API's 5,000). */
export async function loadEconomyHistory(o: Services, agentHex: string, events?: number): Promise<EconomyView> {
  const agent = base58(agentHex);
  if (!o.chain)
    return unknownEconomy(
      agent,
      'this observatory runs no chain (no embedded chain and no SOLANA_RPC_URL), so stake and lease are not known',
    );
  return readEconomy(
    o.reads,
    { bytes: fromHex(agentHex), base58: agent },
    BigInt(o.config.epochSeconds),
    Date.now(),
    events,
  );
}
