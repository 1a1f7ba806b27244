/**
 * A release's on-chain negotiation columns as of its `chainSlot` (docs/datasets.md "Chain
 * evidence"): the release states the chain at one slot, so its Haggle columns are the negotiation
 * accounts' histories read back from the chain (lib/indexer/haggle-history.ts) and folded up to
 * that slot (lib/store/chain/haggle-fold.ts), exactly what verify-dataset --rpc re-derives. The store
 * says which conversations have a negotiation and where; the chain says what it was at the slot,
 * with the chain's own block times, however far the indexer lagged while the release was written.
 */

import { toHex } from '../protocol/hex';
import type { HaggleEventInput, HaggleNegotiationRow } from '../store/chain';
import { foldHaggleEvents } from '../store/chain';
import type { ExportSource } from '../store/export';
import type { ReleaseChain } from './chain-evidence';

/** The events of one history at or before `slot` (null: every event). */
export const eventsAt = (events: readonly HaggleEventInput[], slot: bigint | null) =>
  slot === null ? [...events] : events.filter((e) => e.slot <= slot);

/** The negotiations of `conversations` (hex) at `addresses`, as the chain held them at `slot`, oldest first. */
export async function negotiationsAt(
  chain: Required<Pick<ReleaseChain, 'haggleEvents'>>,
  addresses: Iterable<string>,
  conversations: ReadonlySet<string>,
  slot: bigint,
  cache = new Map<string, HaggleEventInput[]>(),
): Promise<HaggleNegotiationRow[]> {
  const out: HaggleNegotiationRow[] = [];
  for (const a of new Set(addresses)) {
    let events = cache.get(a);
    if (!events) {
      const r = await chain.haggleEvents(a);
      // A release is not written from a history it could not read (the scheduler retries it).
      if ('error' in r) throw new Error(`the Haggle history of ${a}: ${r.error}`);
      events = r;
      cache.set(a, events);
    }
    out.push(...foldHaggleEvents(eventsAt(events, slot)).filter((n) => conversations.has(toHex(n.conversationId))));
  }
  return out.sort((x, y) =>
    x.createdSlot !== y.createdSlot ? (x.createdSlot < y.createdSlot ? -1 : 1) : x.id < y.id ? -1 : x.id > y.id ? 1 : 0,
  );
}

/** `source` with each negotiations page's Haggle negotiations re-read from the chain as of `slot`. */
export function sourceAsOf(
  source: ExportSource,
  chain: Required<Pick<ReleaseChain, 'haggleEvents'>>,
  slot: bigint,
): ExportSource {
  const cache = new Map<string, HaggleEventInput[]>();
  return {
    ...source,
    scanNegotiations: async function* (f, o) {
      for await (const pg of source.scanNegotiations(f, o)) {
        const convs = new Set(pg.onChain.map((n) => toHex(n.conversationId)));
        yield {
          rows: pg.rows,
          onChain: await negotiationsAt(
            chain,
            pg.onChain.map((n) => n.address),
            convs,
            slot,
            cache,
          ),
        };
      }
    },
  };
}
